// Command table prints make bench's results as one table: it reads
// `go test -bench` output files (and bench/proxy's, which ends with a line
// of that form) and measures app.wasm.
//
//	go run ./bench/table -wasm web/app.wasm server.txt app.txt app-wasm.txt browser.txt check.txt [proxy.txt [codec.txt]]
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// results maps a benchmark's name to its metrics by unit, per file.
type results map[string]map[string]float64

var benchLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func parse(path string) (results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := results{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		fields := strings.Fields(m[2])
		metrics := map[string]float64{}
		for i := 0; i+1 < len(fields); i += 2 {
			if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
				metrics[fields[i+1]] = v
			}
		}
		out[m[1]] = metrics
	}
	return out, sc.Err()
}

func main() {
	wasm := flag.String("wasm", "web/app.wasm", "the built app.wasm")
	flag.Parse()
	if flag.NArg() < 5 || flag.NArg() > 7 {
		fmt.Fprintln(os.Stderr, "usage: benchtable -wasm app.wasm server.txt app.txt app-wasm.txt browser.txt check.txt [proxy.txt [codec.txt]]")
		os.Exit(2)
	}
	var files [7]results
	for i := range flag.NArg() {
		r, err := parse(flag.Arg(i))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		files[i] = r
	}
	server, native, wasmNode, browser, engine, proxy, codec := files[0], files[1], files[2], files[3], files[4], files[5], files[6]

	row := func(measure, value string) { fmt.Printf("| %s | %s |\n", measure, value) }
	fmt.Println("| measure | result |")
	fmt.Println("|---|---|")

	if s := server["NormalStream/encoding=sse"]; s != nil {
		row("(a) server: normal stream, delays zeroed, in-process",
			fmt.Sprintf("%s events/s · %.1f allocs/event · %s B/event · %.0f write and %.0f flush per stream",
				group(s["events/s"]), s["allocs/event"], group(s["B/event"]), s["writes/stream"], s["flushes/stream"]))
		if bin := server["NormalStream/encoding=binary"]; bin != nil {
			row("(a) server: the same stream in the binary transport, against SSE, in the same run",
				fmt.Sprintf("CPU per stream %s against %s (%.2fx) · %s bytes on the wire against %s (%.2fx) · %.1f allocs/event",
					duration(bin["ns/op"]), duration(s["ns/op"]), bin["ns/op"]/s["ns/op"],
					group(bin["bytes/stream"]), group(s["bytes/stream"]), bin["bytes/stream"]/s["bytes/stream"], bin["allocs/event"]))
		}
	}
	if d := codec["Decode/StateDelta"]; d != nil {
		var parts []string
		for _, e := range []string{"TextMessageContent", "StateDelta", "RunFinishedInterrupt"} {
			bin, text := codec["Decode/"+e], codec["ReadJSON/"+e]
			if bin != nil && text != nil {
				parts = append(parts, fmt.Sprintf("%s %s against %s (%.2fx)", e, duration(bin["ns/op"]), duration(text["ns/op"]), bin["ns/op"]/text["ns/op"]))
			}
		}
		row("(c) engine: one event read, decoded from its binary frame (agui/proto) against read from its SSE JSON", strings.Join(parts, " · "))
	}
	if p := proxy["Proxy"]; p != nil {
		straight := p["straight-streams/s"]
		row(fmt.Sprintf("(a) server: through agent-analysis proxy, %.0f normal streams at once, delays zeroed, loopback", p["concurrency"]),
			fmt.Sprintf("proxy CPU %.1f µs/stream against Go's httputil.ReverseProxy's %.1f, judging nothing (%.2fx, rounds %.2f to %.2f; goal at most 1.3x) · first byte p50 %.2f ms through it, %.2f ms through the reverse proxy (%+.2f ms; goal within 0.5 ms), %.2f ms straight · %s streams/s straight, %s through the proxy (%.2fx), %.2fx through the reverse proxy · a TCP relay, reading no HTTP (bench/floor): %.2fx at %.1f µs/stream",
				p["proxy-µs/stream"], p["reverse-µs/stream"], p["cpu-over-reverse"], p["cpu-over-reverse-least"], p["cpu-over-reverse-most"],
				p["proxy-ttfb-ms"], p["reverse-ttfb-ms"], p["ttfb-over-reverse-ms"], p["straight-ttfb-ms"],
				group(straight), group(p["proxy-streams/s"]), p["proxy-streams/s"]/straight,
				p["reverse-streams/s"]/straight, p["relay-streams/s"]/straight, p["relay-µs/stream"]))
	}
	if s := server["HealthzUnderStalledBodies"]; s != nil {
		row(fmt.Sprintf("(b) server: /healthz while %s connections trickle their bodies", group(s["stalled-bodies"])),
			fmt.Sprintf("p50 %.2f ms · p99 %.2f ms (500 requests; budget p99 100 ms)", s["ms-p50"], s["ms-p99"]))
	}
	if s := server["HeldSlowStreams"]; s != nil {
		row(fmt.Sprintf("(b) server: %s slow streams held over loopback", group(s["streams"])),
			fmt.Sprintf("%.1f goroutines/stream (%.1f server side) · %.1f KiB heap/stream (both ends) · all held in %.0f ms · goroutines back to baseline %.0f ms after every client cancelled",
				s["goroutines/stream"], s["server-goroutines/stream"], s["heap-KiB/stream"], s["ms-to-hold"], s["ms-to-release"]))
	}
	for _, n := range []string{"4", "100", "1000", "10000"} {
		name := "UpdateDelta/services=" + n
		nat, js := native[name], wasmNode[name]
		if nat == nil || js == nil {
			continue
		}
		row(fmt.Sprintf("(c) client: one delta, read + apply + check + reduce, %s services", group(parseFloat(n))),
			fmt.Sprintf("native %s (%s allocs) · wasm/Node %s · wasm/native %.1fx",
				duration(nat["ns/op"]), group(nat["allocs/op"]), duration(js["ns/op"]), js["ns/op"]/nat["ns/op"]))
	}
	if small, large := native["UpdateDelta/services=4"], native["UpdateDelta/services=10000"]; small != nil && large != nil {
		smallJS, largeJS := wasmNode["UpdateDelta/services=4"], wasmNode["UpdateDelta/services=10000"]
		row("(c) client: one delta at 10,000 services against one at 4 (budget 10x)",
			fmt.Sprintf("native %.2fx · wasm/Node %.2fx", large["ns/op"]/small["ns/op"], largeJS["ns/op"]/smallJS["ns/op"]))
	}
	if ok, bad := native["Patch64/accepted"], native["Patch64/rejected"]; ok != nil && bad != nil {
		okJS, badJS := wasmNode["Patch64/accepted"], wasmNode["Patch64/rejected"]
		row("(c) client: 64-operation delta at 1,000 services, rejected at its last against accepted (budget 4x)",
			fmt.Sprintf("native %s / %s = %.2fx · wasm/Node %s / %s = %.2fx",
				duration(bad["ns/op"]), duration(ok["ns/op"]), bad["ns/op"]/ok["ns/op"],
				duration(badJS["ns/op"]), duration(okJS["ns/op"]), badJS["ns/op"]/okJS["ns/op"]))
	}

	if c := engine["CorpusReplay"]; c != nil {
		row(fmt.Sprintf("(c) engine: a whole corpus replayed through the AG-UI engine (agui) (%.0f files, %.0f events)", c["files"], c["events"]),
			fmt.Sprintf("%.1f µs per event · %s allocs per replay", c["µs/event"], group(c["allocs/op"])))
	}

	raw, err := os.ReadFile(*wasm)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	size := fmt.Sprintf("raw %s · gzip -9 %s", mb(len(raw)), mb(gzipped(raw)))
	if br, fresh := brotli(*wasm); fresh {
		size += fmt.Sprintf(" · brotli %s (as make wasm built it)", mb(br))
	} else {
		size += " · brotli: not built (install brotli, then make wasm)"
	}
	row("(d) app.wasm", size)
	if raw, err := os.ReadFile(filepath.Join(filepath.Dir(*wasm), "inspector.wasm")); err == nil {
		size := fmt.Sprintf("raw %s · gzip -9 %s", mb(len(raw)), mb(gzipped(raw)))
		if br, fresh := brotli(filepath.Join(filepath.Dir(*wasm), "inspector.wasm")); fresh {
			size += fmt.Sprintf(" · brotli %s (as make wasm built it)", mb(br))
		}
		row("(d) inspector.wasm (the inspector's page, a build of its own)", size)
	}

	if r := browser["Rendering"]; r != nil {
		for _, n := range []string{"4", "100", "1000", "10000"} {
			ours, plain := r["ours-delta-ms/n="+n], r["plain-delta-ms/n="+n]
			if ours == 0 || plain == 0 {
				continue
			}
			row(fmt.Sprintf("(e) browser: one single-service delta at %s services, main-thread busy ms (median of 5 runs of 20)", group(parseFloat(n))),
				fmt.Sprintf("this page %.1f · plain page %.1f · %.2fx · longest task while deltas stream %s (plain %s)",
					ours, plain, ours/plain, longTask(r["ours-longest-ms/n="+n]), longTask(r["plain-longest-ms/n="+n])))
			row(fmt.Sprintf("(e) browser: the snapshot of %s services until drawn, main-thread busy ms", group(parseFloat(n))),
				fmt.Sprintf("this page %.0f · plain page %.0f · %.2fx · longest task %s (plain %s) · a click meanwhile waited at most %.0f ms (plain %.0f)",
					r["ours-snapshot-ms/n="+n], r["plain-snapshot-ms/n="+n], r["ours-snapshot-ms/n="+n]/r["plain-snapshot-ms/n="+n],
					longTask(r["ours-snapshot-longest-ms/n="+n]), longTask(r["plain-snapshot-longest-ms/n="+n]),
					r["ours-snapshot-click-wait-ms/n="+n], r["plain-snapshot-click-wait-ms/n="+n]))
		}
		if ours, plain := r["ours-delta-growth-x"], r["plain-delta-growth-x"]; ours > 0 {
			row("(e) browser: a delta at 1,000 services against one at 4, medians of the same run (budget 1.4x)",
				fmt.Sprintf("this page %.2fx · plain page %.2fx", ours, plain))
		}
	}
	if s := browser["PhoneStartup"]; s != nil {
		row("(e) browser: navigation to a usable Run on a phone (390 px, 1.6 Mbit/s, 150 ms round trip, CPU 4x slower)",
			fmt.Sprintf("cold %.1f s · warm %.1f s (medians of 3)", s["ms-cold-to-run"]/1000, s["ms-warm-to-run"]/1000))
	}
	if s := browser["Inspector"]; s != nil {
		row("(e) browser: the inspector, an event from the agent through proxy -inspect to the page's timeline, 50 events/s",
			fmt.Sprintf("p95 %.1f ms · max %.1f ms over 250 events (budget p95 100 ms)", s["ms-event-to-screen-p95"], s["ms-event-to-screen-max"]))
		row("(e) browser: the inspector, a 10,000-event run opened, read and scrolled to its end (after another run)",
			fmt.Sprintf("longest task %s · %.0f tasks of 50 ms or more (budget: none over 50 ms)", longTask(s["ms-longest-task-10k"]), s["long-tasks-10k"]))
		row("(e) browser: the inspector, the first run a fresh page shows, the same way",
			fmt.Sprintf("longest task: %s with 31 events · %s with 10,000 (budget: none over 50 ms, each)", longTask(s["ms-longest-task-first-31"]), longTask(s["ms-longest-task-first-10k"])))
		row("(e) browser: the inspector, loading the page (starting the WebAssembly)",
			fmt.Sprintf("longest task %s (no budget)", longTask(s["ms-longest-task-load"])))
	}
	if b := browser["Browser"]; b != nil {
		row("(e) browser: navigation to a usable Run button, cold cache, 1280x800", fmt.Sprintf("median of 5: %.0f ms", b["ms-to-interactive"]))
		row("(e) browser: snapshot bytes on the wire to its first mark in the page", fmt.Sprintf("median of 5: %.1f ms", b["ms-event-to-mark"]))
	}
}

func gzipped(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

// brotli returns the size of app.wasm.br if make wasm left a fresh one.
func brotli(wasm string) (int, bool) {
	br, err := os.Stat(wasm + ".br")
	if err != nil {
		return 0, false
	}
	w, err := os.Stat(wasm)
	if err != nil || br.ModTime().Before(w.ModTime()) {
		return 0, false
	}
	return int(br.Size()), true
}

// longTask words a longest task: Chromium reports none under 50 ms.
func longTask(ms float64) string {
	if ms == 0 {
		return "none over 50 ms"
	}
	return fmt.Sprintf("%.0f ms", ms)
}

func mb(n int) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }

func duration(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	default:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
}

func parseFloat(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }

// group writes a whole number with thousands separators.
func group(v float64) string {
	s := strconv.FormatFloat(v, 'f', 0, 64)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
