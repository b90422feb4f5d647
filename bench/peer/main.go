// Command peer measures the server's CPU per stream against a Node stack
// (node:http and @ag-ui/encoder, in bench/peer/node) doing the
// same work, side by side in one run: both serve the normal scenario with
// delays zeroed on loopback, and each server process's CPU time (user and
// system, all threads, from /proc) is read before and after the same load.
//
//	make bench-peer        # or: go run ./bench/peer -streams 20000
//
// It needs Node and npm; it is not part of make test.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	streams := flag.Int("streams", 20000, "streams per server at each concurrency")
	flag.Parse()
	if err := run(*streams); err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
}

// server is one of the two processes under load.
type server struct {
	name string
	url  string
	cmd  *exec.Cmd
}

func run(streams int) error {
	work, err := os.MkdirTemp("", "agent-analysis-peer-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "agent-analysis")
	if out, err := exec.Command("go", "build", "-o", bin, "./server/cmd/agent-analysis").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	if _, err := os.Stat("bench/peer/node/node_modules/@ag-ui/encoder"); err != nil {
		npm := exec.Command("npm", "ci", "--silent")
		npm.Dir, npm.Stdout, npm.Stderr = "bench/peer/node", os.Stderr, os.Stderr
		if err := npm.Run(); err != nil {
			return fmt.Errorf("npm ci in bench/peer/node: %w", err)
		}
	}
	goServer, err := start("Go", exec.Command(bin, "-addr", "127.0.0.1:0", "-no-delay", "-log-json", "-web", work), `"url":"http://`, func(line string) string {
		_, rest, _ := strings.Cut(line, `"url":"`)
		url, _, _ := strings.Cut(rest, `"`)
		return strings.TrimSuffix(url, "/agent-analysis")
	})
	if err != nil {
		return err
	}
	defer goServer.stop()
	node := exec.Command("node", "server.mjs")
	node.Dir = "bench/peer/node"
	nodeServer, err := start("Node", node, "listening ", func(line string) string {
		return "http://127.0.0.1:" + strings.TrimPrefix(line, "listening ")
	})
	if err != nil {
		return err
	}
	defer nodeServer.stop()

	version, _ := exec.Command("node", "--version").Output()
	fmt.Printf("CPU per normal stream, delays zeroed, loopback, %d streams per server per row in two rounds of %d (Node %s)\n\n",
		2*streams, streams, strings.TrimSpace(string(version)))
	fmt.Println("| concurrency | Go CPU/stream | Node CPU/stream | Go/Node CPU | Go streams/s | Node streams/s |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, s := range []*server{goServer, nodeServer} { // warm both up
		if _, _, err := load(s, 16, 2000); err != nil {
			return err
		}
	}
	for _, c := range []int{16, 128} {
		// Twice each, interleaved, so that a busy moment of the machine
		// falls on both.
		var cpu, rate [2]float64
		for range 2 {
			for i, s := range []*server{goServer, nodeServer} {
				perStream, perSecond, err := load(s, c, streams)
				if err != nil {
					return err
				}
				cpu[i] += perStream / 2
				rate[i] += perSecond / 2
			}
		}
		fmt.Printf("| %d | %.1f µs | %.1f µs | %.2fx | %.0f | %.0f |\n", c, cpu[0], cpu[1], cpu[0]/cpu[1], rate[0], rate[1])
	}
	return nil
}

// start runs a server and waits for the line that says where it listens.
func start(name string, cmd *exec.Cmd, marker string, url func(string) string) (*server, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), marker) {
				select {
				case found <- url(sc.Text()):
				default:
				}
			}
		}
	}()
	select {
	case u := <-found:
		return &server{name: name, url: u, cmd: cmd}, nil
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return nil, fmt.Errorf("%s did not start", name)
	}
}

func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
	}
}

// load plays n streams at concurrency c and returns the server's CPU
// microseconds per stream and the streams per second.
func load(s *server, c, n int) (cpuPerStream, perSecond float64, err error) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c}}
	defer client.CloseIdleConnections()
	body := `{"threadId":"t","runId":"r","protocolVersion":"1.0","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`
	before, err := cpuTime(s.cmd.Process.Pid)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, c)
	for range c {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				if err := stream(client, s.url, body); err != nil {
					errs <- fmt.Errorf("%s: %w", s.name, err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return 0, 0, err
	}
	after, err := cpuTime(s.cmd.Process.Pid)
	if err != nil {
		return 0, 0, err
	}
	return float64((after - before).Microseconds()) / float64(n), float64(n) / elapsed.Seconds(), nil
}

func stream(client *http.Client, url, body string) error {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url+"/api/agent-analysis", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 || bytes.Count(data, []byte("data: ")) != 6 || !bytes.Contains(data, []byte("RUN_FINISHED")) {
		return fmt.Errorf("status %d, %d events", resp.StatusCode, bytes.Count(data, []byte("data: ")))
	}
	return nil
}

// cpuTime is a process's user and system time, all threads, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 10 ms).
func cpuTime(pid int) (time.Duration, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	_, rest, ok := strings.Cut(string(stat), ") ") // the command name may hold spaces
	fields := strings.Fields(rest)
	if !ok || len(fields) < 13 {
		return 0, errors.New("unreadable /proc stat")
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("unreadable /proc stat")
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}
