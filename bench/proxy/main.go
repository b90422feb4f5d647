// Command proxy measures agent-analysis proxy in front of the server: the
// same load generator plays normal streams, delays zeroed, over loopback,
// straight to `serve -no-delay` and through `proxy -upstream` to it, in
// turn, and compares streams per second, each process's CPU per stream
// (user and system, all threads, from /proc) and the time to each
// stream's first byte. Two floors go through the same rounds: Go's own
// reverse proxy, which judges nothing, and a TCP relay that copies bytes
// in the kernel and reads no HTTP at all, the least any proxy can cost
// (bench/floor).
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
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/bench/internal/load"
)

func main() {
	streams := flag.Int("streams", 10000, "streams per round, straight and through the proxy")
	concurrency := flag.Int("c", 16, "streams at once")
	flag.Parse()
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

	paths := []*load.Process{server, proxy, reverse, relay}
	for _, p := range paths { // warm up
		if _, err := load.Play(p.URL, c, 2000); err != nil {
			return err
		}
	}
	// Twice each, the second time in the reverse order (load.Order).
	rounds := make([][]load.Result, len(paths))
	for round := range 2 {
		for _, i := range load.Order(round, len(paths)) {
			procs := []*load.Process{server}
			if i > 0 {
				procs = append(procs, paths[i])
			}
			r, err := load.Play(paths[i].URL, c, streams, procs...)
			if err != nil {
				return fmt.Errorf("%s: %w", paths[i].Name, err)
			}
			rounds[i] = append(rounds[i], r)
		}
	}
	d, t := mean(rounds[0]), mean(rounds[1])

	fmt.Printf("The proxy in front of the server: normal streams, delays zeroed, loopback, %d at once, two rounds of %d each way\n\n", c, streams)
	fmt.Println("| path | streams/s | against straight | server CPU/stream | proxy CPU/stream | first byte p50 | first byte p99 |")
	fmt.Println("|---|---|---|---|---|---|---|")
	fmt.Printf("| straight | %.0f | 1x | %.1f µs | | %.2f ms | %.2f ms |\n", d.perSecond, d.cpu[0], d.p50, d.p99)
	names := []string{"", "through agent-analysis proxy", "floor: through Go's httputil.ReverseProxy, judging nothing", "floor: through a TCP relay (kernel splice, no HTTP read)"}
	for i := 1; i < len(paths); i++ {
		m := mean(rounds[i])
		fmt.Printf("| %s | %.0f | %.2fx | %.1f µs | %.1f µs | %.2f ms | %.2f ms |\n", names[i], m.perSecond, m.perSecond/d.perSecond, m.cpu[0], m.cpu[1], m.p50, m.p99)
	}
	// The yardstick is Go's own reverse proxy, the least an HTTP proxy
	// pays: the judging must cost little beside it, and stay off the
	// bytes' path.
	r, f := mean(rounds[2]), mean(rounds[3])
	fmt.Printf("\nproxy CPU against Go's reverse proxy %.2fx (goal at most 1.3x) · first byte p50 %+.2f ms against it (goal within 0.5 ms)\n\n",
		t.cpu[1]/r.cpu[1], t.p50-r.p50)
	// For bench/table.
	fmt.Printf("BenchmarkProxy 1 %d concurrency %.0f straight-streams/s %.0f proxy-streams/s %.1f server-µs/stream %.1f proxy-µs/stream %.3f straight-ttfb-ms %.3f proxy-ttfb-ms %.0f reverse-streams/s %.1f reverse-µs/stream %.3f reverse-ttfb-ms %.0f relay-streams/s %.1f relay-µs/stream\n",
		c, d.perSecond, t.perSecond, d.cpu[0], t.cpu[1], d.p50, t.p50, r.perSecond, r.cpu[1], r.p50, f.perSecond, f.cpu[1])
	return nil
}

// means are rounds averaged: CPU per stream in µs, the first byte's
// percentiles in ms.
type means struct {
	perSecond float64
	cpu       []float64
	p50, p99  float64
}

func mean(rounds []load.Result) means {
	var m means
	m.cpu = make([]float64, len(rounds[0].CPU))
	n := float64(len(rounds))
	for _, r := range rounds {
		m.perSecond += r.PerSecond / n
		for i, cpu := range r.CPU {
			m.cpu[i] += float64(cpu) / float64(time.Microsecond) / n
		}
		m.p50 += float64(r.Percentile(0.50)) / float64(time.Millisecond) / n
		m.p99 += float64(r.Percentile(0.99)) / float64(time.Millisecond) / n
	}
	return m
}
