//! Parts of the answer written as one HTML string and set as their element's markup: the bar's
//! legend and the card chips (the chart's drawing likewise, in `chart`). None of them holds state
//! (no focus, no open `<details>`), and one `innerHTML` costs the page one call where building
//! them node by node cost a wasm→JS call per node and attribute, repeated on every update
//! (Leptos's type-erased attribute lists re-set each attribute when a view is rebuilt). Texts are
//! escaped. No `style` attributes: the offline file's CSP allows none (widths go through the
//! CSSOM instead).

/// Text made safe inside HTML text and double-quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// Appends `s` escaped for HTML text and double-quoted attributes.
pub fn push_escaped(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Appends `<tag class="class" [attr="value"…]>text</tag>`; `class` and the attribute names are
/// fixed identifiers of the page, the values and the text are escaped.
pub fn push_element(out: &mut String, tag: &str, class: &str, attrs: &[(&str, &str)], text: &str) {
    out.push('<');
    out.push_str(tag);
    out.push_str(" class=\"");
    push_escaped(out, class);
    out.push('"');
    for (name, value) in attrs {
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        push_escaped(out, value);
        out.push('"');
    }
    out.push('>');
    push_escaped(out, text);
    out.push_str("</");
    out.push_str(tag);
    out.push('>');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text_and_attribute_values() {
        let mut s = String::new();
        push_element(
            &mut s,
            "span",
            "chip fits",
            &[("title", "a \"b\" <c>")],
            "x & y",
        );
        assert_eq!(
            s,
            r#"<span class="chip fits" title="a &quot;b&quot; &lt;c&gt;">x &amp; y</span>"#
        );
    }
}
