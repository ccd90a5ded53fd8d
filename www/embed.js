/* vramfit embed loader (no dependencies). Put on any page:
 *   <div data-vramfit="model=llama-3.1-8b-instruct&amp;ctx=8192&amp;show=model,ctx,seqs,gpu"></div>
 *   <script src="https://…/vramfit/embed.js" async></script>
 * Each [data-vramfit] element gets an iframe of the app next to this script (its own src decides
 * where) with embed=1 and the element's parameters; the iframe takes the height the app posts
 * ({type: "vramfit:height", height}, accepted only from that iframe and the app's origin).
 * window.vramfitEmbed.mount() mounts elements added later. */
(function () {
  'use strict';
  var script = document.currentScript;
  var app = new URL('./', (script && script.src) || location.href);
  var frames = [];

  function mount() {
    var nodes = document.querySelectorAll('[data-vramfit]');
    for (var i = 0; i < nodes.length; i++) {
      var el = nodes[i];
      if (el.querySelector('iframe[data-vramfit-frame]')) continue;
      var params = new URLSearchParams(el.getAttribute('data-vramfit') || '');
      params.set('embed', '1');
      var frame = document.createElement('iframe');
      frame.setAttribute('data-vramfit-frame', '');
      frame.title = el.getAttribute('data-vramfit-title') || 'vramfit';
      frame.src = app.href + '?' + params.toString();
      frame.style.display = 'block';
      frame.style.width = '100%';
      frame.style.minWidth = '300px';
      frame.style.maxWidth = '800px';
      frame.style.height = '420px';
      frame.style.border = '0';
      el.appendChild(frame);
      frames.push(frame);
    }
  }

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.origin !== app.origin && app.origin !== 'null') return;
    if (!data || data.type !== 'vramfit:height' || typeof data.height !== 'number') return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.max(0, Math.ceil(data.height)) + 'px';
      }
    }
  });

  window.vramfitEmbed = { mount: mount, app: app.href };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount);
  else mount();
})();
