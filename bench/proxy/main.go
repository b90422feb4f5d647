// Command proxy measures agent-analysis proxy in front of the server: the
// same load generator plays normal streams, delays zeroed, over loopback,
// straight to `serve -no-delay` and through `proxy -upstream` to it, in
// turns (load.Round), and compares streams per second, each process's
// CPU per stream (user and system, all threads, from its CPU clock) and
// the time to each stream's first byte. Two floors go through the same
// rounds: Go's own reverse proxy, which judges nothing, and a TCP relay
// that copies bytes in the kernel and reads no HTTP at all, the least any
// proxy can cost (bench/floor).
//
//	go run ./bench/proxy        # make bench and make bench-peer run it
//
// Besides its table it prints one line in `go test -bench` form, which
// bench/table reads.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/agent-analysis/agent-analysis/bench/internal/load"
)

func main() {
	streams := flag.Int("streams", 20000, "streams per path, over all rounds")
	concurrency := flag.Int("c", 16, "streams at once")
	flag.Parse()
	if *streams < load.MinStreams {
		fmt.Fprintf(os.Stderr, "proxy: -streams must be at least %d: %d rounds of a turn of %d\n", load.MinStreams, load.Rounds, load.Turn)
		os.Exit(2)
	}
	if err := run(*streams, *concurrency); err != nil {
		fmt.Fprintln(os.Stderr, "proxy:", err)
		os.Exit(1)
	}
}

func run(streams, c int) error {
	work, err := os.MkdirTemp("", "agent-analysis-proxy-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	bin, err := load.Build(work)
	if err != nil {
		return err
	}
	server, err := load.Start("server", exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-no-delay", "-log-json", "-web", work), `"url":"http://`, func(line string) string {
		_, rest, _ := strings.Cut(line, `"url":"`)
		url, _, _ := strings.Cut(rest, `"`)
		return strings.TrimSuffix(url, "/agent-analysis")
	})
	if err != nil {
		return err
	}
	defer server.Stop()
	// The proxy prints a line per run, as it would to a terminal.
	proxy, err := load.Start("proxy", exec.Command(bin, "proxy", "-addr", "127.0.0.1:0", "-upstream", server.URL), "proxy: listening on ", func(line string) string {
		_, rest, _ := strings.Cut(line, "listening on ")
		url, _, _ := strings.Cut(rest, ",")
		return url
	})
	if err != nil {
		return err
	}
	defer proxy.Stop()

	reverse, err := load.Floor(work, "httputil.ReverseProxy", "reverse", "-upstream", server.URL)
	if err != nil {
		return err
	}
	defer reverse.Stop()
	relay, err := load.Floor(work, "TCP relay", "relay", "-upstream", server.URL)
	if err != nil {
		return err
	}
	defer relay.Stop()

	hops := []*load.Process{server, proxy, reverse, relay}
	for _, p := range hops { // warm up
		if _, err := load.Play(p.URL, c, 2000); err != nil {
			return err
		}
	}
	// Each path costs the server, and the proxy on it.
	paths := []load.Path{{URL: server.URL, Procs: []*load.Process{server}}}
	for _, p := range hops[1:] {
		paths = append(paths, load.Path{URL: p.URL, Procs: []*load.Process{server, p}})
	}
	// Rounds of the paths' turns (load.Round): the proxy and Go's reverse
	// proxy meet the same moments of the machine, and their ratio is taken
	// within each round.
	per := streams / load.Rounds
	byPath := make([]figures, len(paths))
	var overReverse, ttfbOverReverse []float64
	for round := range load.Rounds {
		results, err := load.Round(c, per, paths...)
		if err != nil {
			return err
		}
		for i, r := range results {
			byPath[i].add(r)
		}
		// The yardstick is Go's own reverse proxy, the least an HTTP
		// proxy pays: the judging must cost little beside it, and stay
		// off the bytes' path.
		t, r := &byPath[1], &byPath[2]
		overReverse = append(overReverse, t.proxyCPU[round]/r.proxyCPU[round])
		ttfbOverReverse = append(ttfbOverReverse, t.p50[round]-r.p50[round])
	}
	d, t, r, f := byPath[0].medians(), byPath[1].medians(), byPath[2].medians(), byPath[3].medians()

	fmt.Printf("The proxy in front of the server: normal streams, delays zeroed, loopback, %d at once, %d streams each way in %d rounds of %d, played in turns of %d: each figure the median round's, each comparison the median of the rounds' own, with their least and most\n\n", c, per*load.Rounds, load.Rounds, per, load.Turn)
	fmt.Println("| path | streams/s | against straight | server CPU/stream | proxy CPU/stream | first byte p50 | first byte p99 |")
	fmt.Println("|---|---|---|---|---|---|---|")
	fmt.Printf("| straight | %.0f | 1x | %.1f µs | | %.2f ms | %.2f ms |\n", d.perSecond, d.serverCPU, d.p50, d.p99)
	names := []string{"", "through agent-analysis proxy", "floor: through Go's httputil.ReverseProxy, judging nothing", "floor: through a TCP relay (kernel splice, no HTTP read)"}
	for i := 1; i < len(paths); i++ {
		m := byPath[i].medians()
		fmt.Printf("| %s | %.0f | %.2fx | %.1f µs | %.1f µs | %.2f ms | %.2f ms |\n", names[i], m.perSecond, m.perSecond/d.perSecond, m.serverCPU, m.proxyCPU, m.p50, m.p99)
	}
	cpuRatio, ttfb := load.Median(overReverse), load.Median(ttfbOverReverse)
	fmt.Printf("\nproxy CPU against Go's reverse proxy %s (goal at most 1.3x) · first byte p50 %+.2f ms (%+.2f to %+.2f) against it (goal within 0.5 ms)\n\n",
		load.Spread(overReverse), ttfb, slices.Min(ttfbOverReverse), slices.Max(ttfbOverReverse))
	// For bench/table.
	fmt.Printf("BenchmarkProxy 1 %d concurrency %.0f straight-streams/s %.0f proxy-streams/s %.1f server-µs/stream %.1f proxy-µs/stream %.3f straight-ttfb-ms %.3f proxy-ttfb-ms %.0f reverse-streams/s %.1f reverse-µs/stream %.3f reverse-ttfb-ms %.0f relay-streams/s %.1f relay-µs/stream %.3f cpu-over-reverse %.3f cpu-over-reverse-least %.3f cpu-over-reverse-most %.3f ttfb-over-reverse-ms\n",
		c, d.perSecond, t.perSecond, d.serverCPU, t.proxyCPU, d.p50, t.p50, r.perSecond, r.proxyCPU, r.p50, f.perSecond, f.proxyCPU,
		cpuRatio, slices.Min(overReverse), slices.Max(overReverse), ttfb)
	return nil
}

// figures are one path's, a value per round: streams per second, CPU per
// stream in µs (the server's, and the proxy's when there is one), the
// first byte's percentiles in ms.
type figures struct {
	perSecond, serverCPU, proxyCPU, p50, p99 []float64
}

func (f *figures) add(r load.Result) {
	f.perSecond = append(f.perSecond, r.PerSecond)
	f.serverCPU = append(f.serverCPU, load.Micros(r.CPU[0]))
	if len(r.CPU) > 1 {
		f.proxyCPU = append(f.proxyCPU, load.Micros(r.CPU[1]))
	}
	f.p50 = append(f.p50, load.Millis(r.Percentile(0.50)))
	f.p99 = append(f.p99, load.Millis(r.Percentile(0.99)))
}

// medianRound is a path's median round, figure by figure.
type medianRound struct {
	perSecond, serverCPU, proxyCPU, p50, p99 float64
}

func (f *figures) medians() medianRound {
	m := medianRound{perSecond: load.Median(f.perSecond), serverCPU: load.Median(f.serverCPU), p50: load.Median(f.p50), p99: load.Median(f.p99)}
	if len(f.proxyCPU) > 0 {
		m.proxyCPU = load.Median(f.proxyCPU)
	}
	return m
}
