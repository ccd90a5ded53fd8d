"""A prototype, kept for its measurement (README.md beside it): how much of the app's code a
split *declared in the source* would keep in the first module. It reads the linked wasm (the one
`scripts/env.sh`'s release build links with `--emit-relocs`), follows every edge the linker's
relocations show -- direct calls, function pointers (table indices in code), data that names
functions (vtables) or other data -- from the module's exports, and does not enter a function
whose demangled path contains a line of BOUNDARIES (the declared split points). It prints the
share of code bytes reachable; `--by-module`, the largest reachable modules; `--keep-list FILE`,
the reachable functions' names as tools/split-wasm/keep.txt writes them, so that the first module a
declared split would give can be built (`VRAMFIT_KEEP=FILE`, tools/postbuild) and weighed. Those
names must be Rust's demangling, byte for byte, so that one needs `rustfilt` (cargo install
rustfilt) on PATH.

Usage: python3 tools/split-reach/reach.py LINKED.wasm [BOUNDARIES] [--by-module] [--keep-list FILE]"""
import bisect, collections, re, shutil, subprocess, sys

args = sys.argv[1:]
by_module = '--by-module' in args
keep_list = args[args.index('--keep-list') + 1] if '--keep-list' in args else None
args = [a for i, a in enumerate(args) if a != '--by-module' and a != '--keep-list'
        and not (i > 0 and args[i - 1] == '--keep-list')]
if not args:
    sys.exit(__doc__)

def leb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1
        r |= (x & 0x7f) << s; s += 7
        if x < 0x80: return r, i

def sleb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1
        r |= (x & 0x7f) << s; s += 7
        if x < 0x80:
            if x & 0x40: r -= 1 << s
            return r, i

def name(b, i):
    n, i = leb(b, i)
    return b[i:i+n].decode('utf8', 'replace'), i + n

wasm = open(args[0], 'rb').read()
bounds = [l.strip() for l in open(args[1])] if len(args) > 1 else []
bounds = [x for x in bounds if x and not x.startswith('#')]
i = 8
sections = []  # (id, name, start, end, index)
idx = 0
while i < len(wasm):
    sid = wasm[i]; size, j = leb(wasm, i + 1)
    nm = None
    if sid == 0:
        nm, _ = name(wasm, j)
    sections.append((sid, nm, j, j + size, idx)); idx += 1
    i = j + size

def sec(sid, nm=None):
    for s in sections:
        if s[0] == sid and (nm is None or s[1] == nm): return s

# imports: count functions
n_imp = 0
s = sec(2)
if s:
    i = s[2]; cnt, i = leb(wasm, i)
    for _ in range(cnt):
        _, i = name(wasm, i); _, i = name(wasm, i)
        kind = wasm[i]; i += 1
        if kind == 0: _, i = leb(wasm, i); n_imp += 1
        elif kind == 1: i += 1; fl, i = leb(wasm, i); _, i = leb(wasm, i); (i := leb(wasm, i)[1]) if fl & 1 else None
        elif kind == 2: fl, i = leb(wasm, i); _, i = leb(wasm, i); (i := leb(wasm, i)[1]) if fl & 1 else None
        elif kind == 3: i += 2
# exports
exports = []
s = sec(7); i = s[2]; cnt, i = leb(wasm, i)
for _ in range(cnt):
    nm, i = name(wasm, i); kind = wasm[i]; i += 1; x, i = leb(wasm, i)
    if kind == 0: exports.append(x)
start = sec(8)
if start: exports.append(leb(wasm, start[2])[0])
# code bodies: (start,end) offsets relative to code section payload start
code = sec(10); i = code[2]; cnt, i = leb(wasm, i)
bodies = []
for k in range(cnt):
    size, j = leb(wasm, i)
    bodies.append((i - code[2], j + size - code[2]))
    i = j + size
body_starts = [b[0] for b in bodies]
# data segments: offsets relative to data section payload start, and their memory address
data = sec(11); i = data[2]; cnt, i = leb(wasm, i)
segs = []
for k in range(cnt):
    seg_start = i - data[2]
    flags, i = leb(wasm, i)
    addr = None
    if flags in (0, 2):
        if flags == 2: _, i = leb(wasm, i)
        op = wasm[i]; i += 1
        addr, i = sleb(wasm, i); i += 1  # end
    size, i = leb(wasm, i)
    segs.append((i - data[2], i - data[2] + size, addr))
    i += size
# names
raw_names = fnames = {}
s = sec(0, 'name')
if s:
    i = s[2]; _, i = name(wasm, i)
    while i < s[3]:
        sub = wasm[i]; size, j = leb(wasm, i + 1)
        if sub == 1:
            k = j; cnt, k = leb(wasm, k)
            for _ in range(cnt):
                fi, k = leb(wasm, k); nm, k = name(wasm, k); fnames[fi] = nm
        i = j + size
# linking: symbol table
syms = []
s = sec(0, 'linking'); i = s[2]; _, i = name(wasm, i); ver, i = leb(wasm, i)
while i < s[3]:
    sub = wasm[i]; size, j = leb(wasm, i + 1)
    if sub == 8:
        k = j; cnt, k = leb(wasm, k)
        for _ in range(cnt):
            kind = wasm[k]; k += 1; flags, k = leb(wasm, k)
            if kind in (0, 2, 4, 5):  # function, global, event, table
                index, k = leb(wasm, k)
                if not (flags & 0x10) or (flags & 0x40):
                    nm, k = name(wasm, k)
                syms.append(('f' if kind == 0 else 'o', index))
            elif kind == 1:  # data
                nm, k = name(wasm, k)
                if not (flags & 0x10):
                    seg, k = leb(wasm, k); off, k = leb(wasm, k); sz, k = leb(wasm, k)
                    syms.append(('d', (seg, off, sz)))
                else:
                    syms.append(('o', None))
            elif kind == 3:
                sx, k = leb(wasm, k); syms.append(('o', None))
    i = j + size

# data nodes: each data symbol; relocs in data map to containing symbol else the segment
data_syms = [(si, v) for si, (t, v) in enumerate(syms) if t == 'd']
by_seg = collections.defaultdict(list)
for si, (seg, off, sz) in data_syms: by_seg[seg].append((off, sz, si))
for v in by_seg.values(): v.sort()
def data_node_at(seg, off):
    for o, sz, si in by_seg.get(seg, []):
        if o <= off < o + max(sz, 1): return ('d', si)
    return ('seg', seg)

edges = collections.defaultdict(set)
def target(rtype, ridx):
    t, v = syms[ridx] if ridx < len(syms) else ('o', None)
    if t == 'f': return ('f', v)
    if t == 'd': return ('d', ridx)
    return None
def parse_relocs(secname, owner_of):
    s = sec(0, secname)
    if not s: return 0
    i = s[2]; _, i = name(wasm, i)
    tsec, i = leb(wasm, i); cnt, i = leb(wasm, i)
    n = 0
    for _ in range(cnt):
        rtype = wasm[i]; i += 1
        off, i = leb(wasm, i); ridx, i = leb(wasm, i)
        if rtype in (3, 4, 5, 11, 14, 15, 16, 17, 21, 23):
            _, i = sleb(wasm, i)  # addend
        elif rtype in (8, 9):
            _, i = sleb(wasm, i)
        src = owner_of(off)
        t = target(rtype, ridx)
        if src is not None and t is not None:
            edges[src].add(t); n += 1
    return n
def code_owner(off):
    k = bisect.bisect_right(body_starts, off) - 1
    return ('f', n_imp + k) if k >= 0 else None
def data_owner(off):
    for si, (a, b, addr) in enumerate(segs):
        if a <= off < b: return data_node_at(si, off - a)
    return None
nc = parse_relocs('reloc.CODE', code_owner)
nd = parse_relocs('reloc.DATA', data_owner)

def demangle(nm):
    if nm.startswith('_R'):
        body = re.sub(r'C[sh][0-9a-zA-Z]*_', 'C', nm[2:])
        out, i = [], 0
        while i < len(body):
            if body[i].isdigit() and (i == 0 or not body[i-1].isdigit()):
                j = i
                while j < len(body) and body[j].isdigit(): j += 1
                n = int(body[i:j])
                if j < len(body) and body[j] == '_': j += 1
                out.append(body[j:j+n]); i = j + n
            else:
                i += 1
        return '::'.join(out)
    m = re.match(r'_ZN(.*)E$', nm)
    if not m: return nm
    body, out, i = m.group(1), [], 0
    while i < len(body) and body[i].isdigit():
        j = i
        while body[j].isdigit(): j += 1
        n = int(body[i:j]); out.append(body[j:j+n]); i = j + n
    return '::'.join(out).replace('$LT$', '<').replace('$GT$', '>').replace('$u20$', ' ').replace('..', '::')
fnames = {k: demangle(v) for k, v in fnames.items()}
def is_boundary(f):
    nm = fnames.get(f, '')
    return any(b in nm for b in bounds)

seen = set(); stack = [('f', e) for e in exports]
while stack:
    n = stack.pop()
    if n in seen: continue
    if n[0] == 'f' and is_boundary(n[1]): continue
    seen.add(n)
    stack.extend(edges.get(n, ()))
size = {n_imp + k: b - a for k, (a, b) in enumerate(bodies)}
total = sum(size.values())
reach = sum(size[f] for t, f in seen if t == 'f' and f in size)
print(f"relocs: code {nc}, data {nd}; functions {len(bodies)}, reachable {sum(1 for t,f in seen if t=='f' and f in size)}")
print(f"code bytes: total {total}, reachable {reach} ({100*reach/total:.1f} %)")
if by_module:
    by = collections.Counter()
    for t, f in seen:
        if t == 'f' and f in size:
            nm = fnames.get(f, '?')
            m = re.search(r'(vramfit_\w+)::(\w+)(::\w+)?', nm)
            by[m.group(0) if m else nm[:40]] += size[f]
    for k, v in by.most_common(40): print(f"{v:9d} {k}")
if keep_list:
    if not shutil.which('rustfilt'):
        sys.exit('--keep-list needs rustfilt on PATH (cargo install rustfilt)')
    kept = sorted(f for t, f in seen if t == 'f' and f in size and f in raw_names)
    out = subprocess.run(['rustfilt'], input='\n'.join(raw_names[f] for f in kept), capture_output=True,
                         text=True, check=True).stdout.split('\n')
    # As tools/postbuild/names.js normalises them: no crate disambiguators, hashes or .N suffixes.
    def normalise(n):
        n = re.sub(r'\[[0-9a-f]{6,}\]', '', n)
        n = re.sub(r'::h[0-9a-f]{16}\b', '', n)
        return re.sub(r'\.\d+$', '', n)
    names = sorted({normalise(n) for n in out if n})
    with open(keep_list, 'w') as f:
        f.write(f'# What a split declared by {args[1] if len(args) > 1 else "no boundaries"} keeps '
                '(tools/split-reach/reach.py); build with VRAMFIT_KEEP=this file.\n')
        f.write(''.join(n + '\n' for n in names))
    print(f"{len(names)} names written to {keep_list}")
