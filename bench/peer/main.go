// Command peer measures the server's CPU per stream against a Node stack
// (node:http and @ag-ui/encoder, in bench/peer/node) doing the
// same work, side by side in one run: all serve the normal scenario with
// delays zeroed on loopback, in turns (load.Round), and each server
// process's CPU time (user and system, all threads, from its CPU clock) is
// read before and after each of its turns.
// A third server is the floor: net/http alone answering with the same
// bytes (bench/floor stream), what any Go server pays before its own work.
// A fourth is the server again at Go's default collector pace (GOGC=100),
// which weighs the pace agent-analysis serve sets (internal/gcpace) in the
// same rounds: CPU per stream and peak memory, each pace's. A GOGC set
// for the run applies to all the others (GOGC=100 puts the server and its
// floor both at Go's default).
//
//	make bench-peer        # or: go run ./bench/peer -streams 20000 (a shorter run)
//
// It needs Node and npm; it is not part of make test.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/agent-analysis/agent-analysis/bench/internal/load"
	"github.com/agent-analysis/agent-analysis/internal/gcpace"
)

func main() {
	streams := flag.Int("streams", 60000, "streams per server at each concurrency, over all rounds")
	flag.Parse()
	if *streams < load.MinStreams {
		fmt.Fprintf(os.Stderr, "peer: -streams must be at least %d: %d rounds of a turn of %d\n", load.MinStreams, load.Rounds, load.Turn)
		os.Exit(2)
	}
	if err := run(*streams); err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
}

func run(streams int) error {
	work, err := os.MkdirTemp("", "agent-analysis-peer-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	bin, err := load.Build(work)
	if err != nil {
		return err
	}
	if _, err := os.Stat("bench/peer/node/node_modules/@ag-ui/encoder"); err != nil {
		npm := exec.Command("npm", "ci", "--silent")
		npm.Dir, npm.Stdout, npm.Stderr = "bench/peer/node", os.Stderr, os.Stderr
		if err := npm.Run(); err != nil {
			return fmt.Errorf("npm ci in bench/peer/node: %w", err)
		}
	}
	startGo := func(name string, env ...string) (*load.Process, error) {
		cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-no-delay", "-log-json", "-web", work)
		cmd.Env = append(os.Environ(), env...)
		return load.Start(name, cmd, `"url":"http://`, func(line string) string {
			_, rest, _ := strings.Cut(line, `"url":"`)
			url, _, _ := strings.Cut(rest, `"`)
			return strings.TrimSuffix(url, "/agent-analysis")
		})
	}
	goServer, err := startGo("Go")
	if err != nil {
		return err
	}
	defer goServer.Stop()
	goDefault, err := startGo("Go at GOGC=100", "GOGC=100")
	if err != nil {
		return err
	}
	defer goDefault.Stop()
	node := exec.Command("node", "server.mjs")
	node.Dir = "bench/peer/node"
	nodeServer, err := load.Start("Node", node, "listening ", func(line string) string {
		return "http://127.0.0.1:" + strings.TrimPrefix(line, "listening ")
	})
	if err != nil {
		return err
	}
	defer nodeServer.Stop()

	floor, err := load.Floor(work, "net/http alone", "stream", "-from", goServer.URL)
	if err != nil {
		return err
	}
	defer floor.Stop()

	version, _ := exec.Command("node", "--version").Output()
	fmt.Printf("CPU per normal stream, delays zeroed, loopback, %d streams per server per row in %d rounds of %d, played in turns of %d: each figure the median round's, each ratio the median of the rounds' own, with their least and most (Node %s)\n\n",
		streams/load.Rounds*load.Rounds, load.Rounds, streams/load.Rounds, load.Turn, strings.TrimSpace(string(version)))
	fmt.Println("| concurrency | Go CPU/stream | net/http alone CPU/stream | Go/net/http alone | Node CPU/stream | Go/Node CPU | Go streams/s | Node streams/s |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	servers := []*load.Process{goServer, floor, nodeServer, goDefault}
	paths := make([]load.Path, len(servers))
	for i, s := range servers {
		paths[i] = load.Path{URL: s.URL, Procs: []*load.Process{s}}
	}
	for _, s := range servers { // warm each up: Go's heap and pools, V8's optimising tiers
		if _, err := load.Play(s.URL, 16, streams/6, s); err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	var paces []string // the collector table's rows
	for _, c := range []int{16, 128} {
		// Rounds of the servers' turns (load.Round); ratios within each.
		var cpus, rates [4][]float64
		var overFloor, overNode, overPace []float64
		for round := range load.Rounds {
			results, err := load.Round(c, streams/load.Rounds, paths...)
			if err != nil {
				return err
			}
			for i, r := range results {
				cpus[i] = append(cpus[i], load.Micros(r.CPU[0]))
				rates[i] = append(rates[i], r.PerSecond)
			}
			overFloor = append(overFloor, cpus[0][round]/cpus[1][round])
			overNode = append(overNode, cpus[0][round]/cpus[2][round])
			overPace = append(overPace, cpus[3][round]/cpus[0][round])
		}
		var cpu, rate [4]float64
		for i := range servers {
			cpu[i], rate[i] = load.Median(cpus[i]), load.Median(rates[i])
		}
		fmt.Printf("| %d | %.1f µs | %.1f µs | %s | %.1f µs | %s | %.0f | %.0f |\n",
			c, cpu[0], cpu[1], load.Spread(overFloor), cpu[2], load.Spread(overNode), rate[0], rate[2])
		paces = append(paces, fmt.Sprintf("| %d | %.1f µs | %.1f µs | %s |", c, cpu[0], cpu[3], load.Spread(overPace)))
	}
	fmt.Println("\ngoals: Go at most 1.3x net/http alone, and at most 0.6x Node, at each concurrency")
	pace := os.Getenv("GOGC") // the server's, as gcpace.Set reads it
	if pace == "" {
		pace = strconv.Itoa(gcpace.Percent)
	}
	fmt.Printf("\nThe collector's pace: the same server at Go's default (GOGC=100) against its own (%s), in the same rounds\n\n", pace)
	fmt.Printf("| concurrency | Go CPU/stream | at GOGC=100 | GOGC=100 against %s |\n|---|---|---|---|\n", pace)
	for _, row := range paces {
		fmt.Println(row)
	}
	fmt.Println()
	for _, s := range servers {
		rss, err := s.PeakRSS()
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		fmt.Printf("%s: %.0f MB resident at most\n", s.Name, float64(rss)/1e6)
	}
	return nil
}
