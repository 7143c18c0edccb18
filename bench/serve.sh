#!/usr/bin/env bash
# Benchmark for `pith index` and `pith serve`, side by side in one run, load generator on the
# same machine:
#  1. throughput and latency: wrk, 64 connections, DURATION s, against one badge asked again and
#     again (the hot path), badge SVGs, record JSON, record pages and short forms of pith serve,
#     and against nginx serving the same responses pre-rendered by `pith serve --export` (the
#     physical reference: static files from the page cache), and the search field's redirect
#     (`/?q=<arXiv id>`, 303) against nginx serving the export's stub for the same id; each run
#     but the hot badge cycles
#     through 1,000 numbers of the index (wrk Lua script);
#  2. lookup cost: the record JSON of a 1,000-record and a 1,000,000-record index, same load;
#  3. index build: `pith index` against `pith number --arxiv-snapshot` on the same generated
#     snapshot (bench/arxiv_gen.py, PAPERS lines), wall time and GNU time's peak RSS.
# Not a timed test; run by hand:
#   bench/serve.sh [DURATION] [PAPERS] [BIG] [SERVED]
# `HOT_ROUNDS=1 bench/serve.sh 1 300 2000 300` runs every part at a tiny size in a minute (a
# check that the script still runs; its figures say nothing).
# SERVED papers (20,000) make the index served and exported for the throughput runs (exporting
# 200,000 papers writes 1.6 million files; wrk cycles through 1,000 numbers either way).
# PHASES="index throughput lookup" (the default) picks the parts to run. PITH_BIN_DIR=DIR uses
# the pith and pith-serve binaries in DIR instead of building them.
# HOT_ROUNDS=N (3) runs the hot badge against nginx again in N alternating rounds and prints the
# median ratio; HOT_ONLY=1 runs only those rounds of the throughput phase.
# Targets: no error; every route (badge, record JSON, record page, short form) >= 40,000 req/s
# with p99 < 10 ms; the hot badge (one path) >= 1.0x nginx serving the same file; the search
# redirect >= 20,000 req/s; 1M-record
# lookups within 1.5x of 1k-record ones; index <= 2x pith number, peak RSS < 500 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-30}"
papers="${2:-200000}"
big="${3:-1000000}"
served="${4:-20000}"
phases="${PHASES:-index throughput lookup}"
for tool in wrk nginx sqlite3 python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required (apt-get install wrk nginx-light sqlite3 time)" >&2; exit 2; }
done
work="$(mktemp -d "${TMPDIR:-/var/tmp}/pith-serve-bench.XXXXXX")"
# nginx's workers run as an unprivileged user and must read the export.
chmod 755 "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# PITH_BIN_DIR=DIR runs the pith and pith-serve already built there (CI's, or another tree's).
if [[ -n "${PITH_BIN_DIR:-}" ]]; then
  bin="$PITH_BIN_DIR"
else
  cargo build --release --quiet -p pith-number -p pith-serve
  bin="${CARGO_TARGET_DIR:-target}/release"
fi
pith="$bin/pith"

# 3. Index build against pith number, on the same file (warm cache: each reads it once first).
# Wall time, and CPU time (user + sys), which says more on a machine shared with other work.
measure() { # label, command...: wall seconds, CPU seconds and peak RSS (MB)
  local label="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r wall user sys rss < "$work/time"
  cpu=$(python3 -c "print(f'{$user + $sys:.1f}')")
  printf '| %s | %s | %.1f | %s | %d |\n' "$label" "$papers" "$wall" "$cpu" "$((rss / 1024))"
  echo "$wall $cpu" > "$work/wall-$label"
}
if [[ " $phases " == *" index "* ]]; then
  python3 bench/arxiv_gen.py "$papers" 1 > "$work/snap.jsonl"
  cat "$work/snap.jsonl" > /dev/null
  echo "## index build ($papers papers, $(du -m "$work/snap.jsonl" | cut -f1) MB)"
  echo "| run | papers | wall s | CPU s | peak RSS MB |"
  echo "|---|---|---|---|---|"
  measure "pith number --arxiv-snapshot" "$pith" number --arxiv-snapshot "$work/snap.jsonl"
  rm -f "$work/full.pith-index"
  measure "pith index --arxiv-snapshot" "$pith" index -o "$work/full.pith-index" --arxiv-snapshot "$work/snap.jsonl" -q
  measure "pith index (update, unchanged)" "$pith" index -o "$work/full.pith-index" --arxiv-snapshot "$work/snap.jsonl" -q
  python3 -c "import sys; a,b=(open(f).read().split() for f in sys.argv[1:]); r=lambda i: f'{float(b[i])/float(a[i]):.2f}x' if float(a[i]) else 'n/a (too small to time)'; print(f'index / number: wall {r(0)}, CPU {r(1)} (target <= 2x)')" \
    "$work/wall-pith number --arxiv-snapshot" "$work/wall-pith index --arxiv-snapshot"
  rm -f "$work/snap.jsonl"
fi

# Small and big indexes of light generated records (the lookup, not the text, is measured).
# Ids arXiv can issue, month after month from April 2007: YYMM.NNNN (9,999 a month) until 1412,
# YYMM.NNNNN (99,999 a month) from 1501; `pith index` refuses any other.
light() { # n, file
  python3 - "$1" > "$2" <<'EOF'
import sys
n, i, yymm = int(sys.argv[1]), 0, 704
while i < n:
    width = 5 if yymm >= 1501 else 4
    for k in range(1, min(10 ** width - 1, n - i) + 1):
        print('{"id":"%04d.%0*d","authors":"A. Author","title":"Paper %d","abstract":"Abstract %d.","categories":"cs.DC cs.LG","license":null,"versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}]}'
              % (yymm, width, k, i, i))
        i += 1
    yymm = yymm + 1 if yymm % 100 < 12 else yymm + 89
EOF
}

# A server on a free port; sets $url.
serve() { # index, extra arguments
  "$pith" serve "$1" --listen 127.0.0.1:0 "${@:2}" > "$work/serve.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 600); do
    grep -q '^listening on ' "$work/serve.out" 2>/dev/null && break
    sleep 0.05
  done
  url="$(sed -n 's/^listening on //p' "$work/serve.out")"
  [ -n "$url" ] || { echo "bench: pith serve $1 did not start:" >&2; cat "$work/serve.out" >&2; exit 1; }
}
# 1,000 paths of the form PREFIX<code>SUFFIX, for wrk to cycle through.
paths() { # index, prefix, suffix, file
  sqlite3 "$1" "SELECT code FROM records ORDER BY random() LIMIT 1000" \
    | sed "s|^|$2|; s|\$|$3|" > "$4"
}
cat > "$work/cycle.lua" <<'EOF'
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local headers = {}
if os.getenv("ACCEPT") ~= nil and os.getenv("ACCEPT") ~= "" then headers["Accept"] = os.getenv("ACCEPT") end
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], headers)
end
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format("RESULT %.0f %.2f %.2f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors, summary.requests))
end
EOF
load() { # label, url, paths file, seconds[, Accept]
  ACCEPT="${5:-}" PATHS="$3" wrk -t2 -c64 -d"$4"s -s "$work/cycle.lua" "$2" > "$work/wrk.out" 2>&1 || { cat "$work/wrk.out" >&2; exit 1; }
  read -r _ rps p50 p99 errors total < <(grep '^RESULT' "$work/wrk.out")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$rps" "$p50" "$p99" "$errors" "$total"
  echo "$rps" > "$work/rps-$1"
}

# 1. pith serve against nginx on the export, same paths.
if [[ " $phases " == *" throughput "* ]]; then
python3 bench/arxiv_gen.py "$served" 2 > "$work/served.jsonl"
"$pith" index --fresh -o "$work/full.pith-index" --arxiv-snapshot "$work/served.jsonl" -q
serve "$work/full.pith-index"
"$pith" serve "$work/full.pith-index" --export "$work/site" 2> /dev/null
paths "$work/full.pith-index" /badge/ .svg "$work/badge.paths"
paths "$work/full.pith-index" /pith/ .json "$work/record.paths"
paths "$work/full.pith-index" /pith/ "" "$work/page.paths"
head -1 "$work/badge.paths" > "$work/hot.paths"
# Searches for arXiv ids, old style and new (each a 303 to the record page); nginx answers the
# export's stub.
sqlite3 "$work/full.pith-index" "SELECT DISTINCT arxiv_id FROM records WHERE superseded = 0 ORDER BY random() LIMIT 1000" > "$work/ids"
sed 's|^|/?q=|' "$work/ids" > "$work/search.paths"
sed 's|^|/arxiv/|' "$work/ids" > "$work/stub.paths"
# Short forms whose 8-character prefix is unique (the export holds a stub for those only).
sqlite3 "$work/full.pith-index" "SELECT substr(code, 1, 8) p FROM records GROUP BY p HAVING count(*) = 1 ORDER BY random() LIMIT 1000" \
  | sed 's|^|/pith/|' > "$work/short.paths"
nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<EOF
worker_processes $(nproc);
pid $work/nginx.pid;
error_log $work/nginx.err;
events { worker_connections 1024; }
http {
  types { image/svg+xml svg; application/json json; }
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  open_file_cache max=20000;
  etag on;
  # /pith/<26> and /pith/<8> are folders holding index.html in the export.
  server { listen 127.0.0.1:$nginx_port; root $work/site; location / { try_files \$uri \$uri/index.html =404; } }
}
EOF
nginx -c "$work/nginx.conf" -p "$work"
for _ in $(seq 100); do [ -s "$work/nginx.pid" ] && break; sleep 0.05; done
pids+=("$(cat "$work/nginx.pid")")
echo
echo "## throughput, 64 connections, ${duration} s, 1,000 numbers of a $served-paper index"
echo "| server, route | req/s | p50 ms | p99 ms | errors | requests |"
echo "|---|---|---|---|---|---|"
nginx="http://127.0.0.1:$nginx_port"
# Every path asked once first, to fill the answer cache: the hot path is what is measured.
python3 - "$url" "$work" <<'EOF'
import http.client, sys, urllib.parse
u = urllib.parse.urlparse(sys.argv[1])
c = http.client.HTTPConnection(u.hostname, u.port)
for p in ["hot", "badge", "record", "page", "short", "search"]:
    for path in open(f"{sys.argv[2]}/{p}.paths").read().split():
        c.request("GET", path, headers={"Accept": "text/html"} if p == "page" else {})
        c.getresponse().read()
EOF
# HOT_ONLY=1: the alternating hot badge rounds below only.
if [[ -z "${HOT_ONLY:-}" ]]; then
load "pith serve, hot badge (one SVG)" "$url" "$work/hot.paths" "$duration"
load "nginx, hot badge (one SVG file)" "$nginx" "$work/hot.paths" "$duration"
load "pith serve, badge SVG" "$url" "$work/badge.paths" "$duration"
load "nginx, badge SVG file" "$nginx" "$work/badge.paths" "$duration"
load "pith serve, record JSON" "$url" "$work/record.paths" "$duration"
load "nginx, record JSON file" "$nginx" "$work/record.paths" "$duration"
load "pith serve, record page" "$url" "$work/page.paths" "$duration" text/html
load "nginx, record page file" "$nginx" "$work/page.paths" "$duration" text/html
load "pith serve, short form (303)" "$url" "$work/short.paths" "$duration"
load "nginx, short form stub file" "$nginx" "$work/short.paths" "$duration"
load "pith serve, search (303)" "$url" "$work/search.paths" "$duration"
load "nginx, arXiv stub file" "$nginx" "$work/stub.paths" "$duration"
fi
# The hot badge again in alternating rounds (HOT_ROUNDS, 3 by default), nginx first in every
# other round: one pair of runs on a shared machine says more about the load of its moment
# than about the servers; the median of the rounds' ratios is the figure to read.
hot_rounds="${HOT_ROUNDS:-3}"
if ((hot_rounds > 0)); then
  echo
  echo "## hot badge, $hot_rounds alternating rounds of ${duration} s"
  echo "| server, route | req/s | p50 ms | p99 ms | errors | requests |"
  echo "|---|---|---|---|---|---|"
  for r in $(seq "$hot_rounds"); do
    if ((r % 2)); then
      load "pith serve, hot badge, round $r" "$url" "$work/hot.paths" "$duration"
      load "nginx, hot badge, round $r" "$nginx" "$work/hot.paths" "$duration"
    else
      load "nginx, hot badge, round $r" "$nginx" "$work/hot.paths" "$duration"
      load "pith serve, hot badge, round $r" "$url" "$work/hot.paths" "$duration"
    fi
  done
  python3 - "$work" "$hot_rounds" <<'EOF2'
import statistics, sys
w, n = sys.argv[1], int(sys.argv[2])
r = lambda k: float(open(f"{w}/rps-{k}").read())
ratios = [r(f"pith serve, hot badge, round {i}") / r(f"nginx, hot badge, round {i}") for i in range(1, n + 1)]
print("hot badge / nginx by round: " + ", ".join(f"{x:.2f}x" for x in ratios)
      + f"; median {statistics.median(ratios):.2f}x (goal at least 1.0x)")
EOF2
fi
[[ -n "${HOT_ONLY:-}" ]] || python3 - "$work" <<'EOF'
import sys
w = sys.argv[1]
r = lambda k: float(open(f"{w}/rps-{k}").read())
for what, ours, theirs, target in [
        ("hot badge", "pith serve, hot badge (one SVG)", "nginx, hot badge (one SVG file)", 1.0),
        ("badge SVG", "pith serve, badge SVG", "nginx, badge SVG file", None),
        ("record JSON", "pith serve, record JSON", "nginx, record JSON file", None),
        ("record page", "pith serve, record page", "nginx, record page file", None),
        ("short form", "pith serve, short form (303)", "nginx, short form stub file", None),
        ("search", "pith serve, search (303)", "nginx, arXiv stub file", None)]:
    t = f" (target >= {target})" if target else ""
    goal = 20000 if what == "search" else 40000
    print(f"{what}: pith serve {r(ours):.0f} req/s (target >= {goal}), / nginx = {r(ours) / r(theirs):.2f}{t}")
EOF
kill "${pids[-1]}" "${pids[-2]}" 2>/dev/null || true
fi

# 2. Lookup cost: 1k against 1M records.
if [[ " $phases " == *" lookup "* ]]; then
light 1000 "$work/small.jsonl"
light "$big" "$work/big.jsonl"
"$pith" index -o "$work/small.pith-index" --arxiv-snapshot "$work/small.jsonl" -q
/usr/bin/time -f "%e %M" -o "$work/time" "$pith" index -o "$work/big.pith-index" --arxiv-snapshot "$work/big.jsonl" -q
read -r wall rss < "$work/time"
echo
echo "big index: $big records in ${wall} s, peak RSS $((rss / 1024)) MB, $(du -m "$work/big.pith-index" | cut -f1) MB on disk"
echo
echo "## lookup cost, record JSON without the answer cache, 64 connections, ${duration} s"
echo "| index | req/s | p50 ms | p99 ms | errors | requests |"
echo "|---|---|---|---|---|---|"
# Without the answer cache: every request is a lookup in the index.
serve "$work/small.pith-index" --cache-bytes 0
paths "$work/small.pith-index" /pith/ .json "$work/small.paths"
load "1,000 records" "$url" "$work/small.paths" "$duration"
kill "${pids[-1]}"
serve "$work/big.pith-index" --cache-bytes 0
paths "$work/big.pith-index" /pith/ .json "$work/big.paths"
load "$big records" "$url" "$work/big.paths" "$duration"
python3 - "$work" "$big" <<'EOF'
import sys
w, big = sys.argv[1], sys.argv[2]
r = lambda k: float(open(f"{w}/rps-{k}").read())
print(f"1,000 / {big} records throughput: {r('1,000 records') / r(big + ' records'):.2f}x (target <= 1.5x)")
EOF
fi
