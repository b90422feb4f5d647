// Package load is what bench/peer and bench/proxy measure with: servers
// started as processes, their CPU time read from the kernel's clock of
// each, and one load generator playing normal streams, delays zeroed, over
// loopback.
package load

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Build builds the agent-analysis binary into dir, and bench/floor
// beside it (Floor); it runs from the module's root.
func Build(dir string) (string, error) {
	bin := dir + "/agent-analysis"
	if out, err := exec.Command("go", "build", "-o", bin, "./server/cmd/agent-analysis").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	if out, err := exec.Command("go", "build", "-o", dir+"/floor", "./bench/floor").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// Floor starts bench/floor's kind (stream, reverse or relay) with its
// one flag, from the dir Build built into.
func Floor(dir, name, kind, flag, value string) (*Process, error) {
	return Start(name, exec.Command(dir+"/floor", kind, flag, value), "listening on ", func(line string) string {
		_, url, _ := strings.Cut(line, "listening on ")
		return url
	})
}

// Order is the order turn plays n paths in: as given, then reversed, so
// that coming first, or after a given path, favours none.
func Order(round, n int) []int {
	order := make([]int, n)
	for k := range order {
		order[k] = k
		if round%2 == 1 {
			order[k] = n - 1 - k
		}
	}
	return order
}

// Fetch plays one normal stream at url (its /api/agent-analysis), as
// Play does, and gives its bytes.
func Fetch(url string) ([]byte, error) {
	req, _ := http.NewRequest(http.MethodPost, url+"/api/agent-analysis", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err == nil {
		err = checkNormal(resp.StatusCode, data)
	}
	return data, err
}

// Process is a server under load.
type Process struct {
	Name string
	URL  string // where it listens: scheme, host and port
	cmd  *exec.Cmd
}

// Start runs a server and waits for the line of its output that says
// where it listens (the first holding marker), which url reads. The rest
// of its output is read and dropped, as a terminal would take it.
func Start(name string, cmd *exec.Cmd, marker string, url func(line string) string) (*Process, error) {
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
				found <- url(sc.Text())
				break
			}
		}
		io.Copy(io.Discard, out) // the rest, unread: reading it costs the load generator
	}()
	select {
	case u := <-found:
		return &Process{Name: name, URL: u, cmd: cmd}, nil
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return nil, fmt.Errorf("%s did not start", name)
	}
}

// Stop interrupts the process, and kills it if it has not ended in 5 s.
func (p *Process) Stop() {
	p.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
	}
}

// PeakRSS is the most memory the process has held resident, from
// /proc/PID/status (VmHWM).
func (p *Process) PeakRSS() (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

// Result is one load played.
type Result struct {
	Streams   int
	Elapsed   time.Duration
	PerSecond float64
	// CPU is each process's CPU time per stream, in the order given.
	CPU []time.Duration
	// TTFB is each stream's time from sending its request to the first
	// byte of the answer, sorted.
	TTFB []time.Duration
}

// Percentile is the TTFB below which a share p (0 to 1) of the streams
// got their first byte.
func (r Result) Percentile(p float64) time.Duration {
	if len(r.TTFB) == 0 {
		return 0
	}
	return r.TTFB[min(len(r.TTFB)-1, int(p*float64(len(r.TTFB))))]
}

// body is the RunAgentInput of every stream: as @ag-ui/client 1.0 sends it.
const body = `{"threadId":"t","runId":"r","protocolVersion":"1.0","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`

// Play plays n normal streams at url (its /api/agent-analysis), c at a
// time, each on one of c kept-alive connections, and reads the CPU time
// the processes spent meanwhile.
func Play(url string, c, n int, procs ...*Process) (Result, error) {
	client := newClient(c)
	defer client.CloseIdleConnections()
	r, err := play(client, url, c, n, procs)
	r.finish()
	return r, err
}

// newClient keeps c connections to a server alive.
func newClient(c int) *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c}}
}

// play is Play on client's connections, its Result not yet finished:
// CPU the processes' whole time.
func play(client *http.Client, url string, c, n int, procs []*Process) (Result, error) {
	before := make([]time.Duration, len(procs))
	for i, p := range procs {
		var err error
		if before[i], err = p.CPU(); err != nil {
			return Result{}, err
		}
	}
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, c)
	ttfb := make([][]time.Duration, c)
	for w := range c {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				d, err := stream(client, url)
				if err != nil {
					errs <- err
					return
				}
				ttfb[w] = append(ttfb[w], d)
			}
		})
	}
	wg.Wait()
	r := Result{Streams: n, Elapsed: time.Since(start), TTFB: slices.Concat(ttfb...)}
	close(errs)
	if err := <-errs; err != nil {
		return Result{}, err
	}
	for i, p := range procs {
		after, err := p.CPU()
		if err != nil {
			return Result{}, err
		}
		r.CPU = append(r.CPU, after-before[i])
	}
	return r, nil
}

// finish makes a Result of play's, or of several added up: CPU per
// stream, streams per second, first bytes in order.
func (r *Result) finish() {
	for i := range r.CPU {
		r.CPU[i] /= time.Duration(max(r.Streams, 1))
	}
	if r.Elapsed > 0 {
		r.PerSecond = float64(r.Streams) / r.Elapsed.Seconds()
	}
	slices.Sort(r.TTFB)
}

// stream plays one stream, checks it is the normal scenario's whole, and
// gives its time to first byte.
func stream(client *http.Client, url string) (time.Duration, error) {
	var sent, first time.Time
	trace := &httptrace.ClientTrace{
		WroteRequest:         func(httptrace.WroteRequestInfo) { sent = time.Now() },
		GotFirstResponseByte: func() { first = time.Now() },
	}
	ctx := httptrace.WithClientTrace(context.Background(), trace)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/api/agent-analysis", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if err := checkNormal(resp.StatusCode, data); err != nil {
		return 0, err
	}
	return first.Sub(sent), nil
}

// checkNormal says whether an answer is the normal scenario's whole stream.
func checkNormal(status int, data []byte) error {
	if status != 200 || bytes.Count(data, []byte("data: ")) != 6 || !bytes.Contains(data, []byte("RUN_FINISHED")) {
		return fmt.Errorf("status %d, %d events", status, bytes.Count(data, []byte("data: ")))
	}
	return nil
}
