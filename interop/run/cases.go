package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// report is what check -json prints: the parts the lane reads.
type report struct {
	Results []struct {
		Name     string `json:"name"`
		OK       bool   `json:"ok"`
		Failures []struct {
			Rule string `json:"rule"`
			Text string `json:"text"`
		} `json:"failures"`
		Interrupted string `json:"interrupted"`
	} `json:"results"`
}

// outcome is what a case got: a verdict per run, and what to say of it.
type outcome struct {
	Verdicts []string
	Detail   string // the kit's words for the first failure, or what the lane saw
}

// lane is what every case of one agent runs with.
type lane struct {
	dir   string // interop/: the table's folder, where check runs
	bin   string // agent-analysis, an absolute path
	tmp   string // inputs the lane writes
	url   string // the agent's AG-UI endpoint
	proxy *proxied
}

func (l *lane) run(ctx context.Context, c Case) (outcome, error) {
	switch c.How {
	case "check":
		return l.check(ctx, c.Args)
	case "cancel":
		return l.cancel(ctx, c)
	default:
		return l.throughProxy(ctx, c)
	}
}

// check runs agent-analysis check -json -url against the agent, with the
// case's flags, and reads a verdict per run from its report.
func (l *lane) check(ctx context.Context, args []string) (outcome, error) {
	cmd := exec.CommandContext(ctx, l.bin, append([]string{"check", "-json", "-url", l.url}, args...)...)
	cmd.Dir = l.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return outcome{}, fmt.Errorf("check: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var r report
	if err := json.Unmarshal(out, &r); err != nil {
		return outcome{}, fmt.Errorf("check -json: %v", err)
	}
	var o outcome
	for _, res := range r.Results {
		switch {
		case res.OK && res.Interrupted != "":
			o.Verdicts = append(o.Verdicts, "interrupted")
		case res.OK:
			o.Verdicts = append(o.Verdicts, "ok")
		default:
			var rules []string
			for _, f := range res.Failures {
				if !slices.Contains(rules, f.Rule) {
					rules = append(rules, f.Rule)
				}
			}
			o.Verdicts = append(o.Verdicts, strings.Join(rules, "+"))
			if o.Detail == "" && len(res.Failures) > 0 {
				o.Detail = res.Failures[0].Text
			}
		}
	}
	return o, nil
}

// cancel is a client that leaves mid-run: it asks for -input's run on a
// thread of its own, reads -cancel-after events and hangs up, then has
// check ask for -then's run on the same thread. The verdict is the second
// run's: an agent must serve the thread again.
func (l *lane) cancel(ctx context.Context, c Case) (outcome, error) {
	after, err := strconv.Atoi(flagValue(c.Args, "-cancel-after"))
	if err != nil || after < 1 {
		return outcome{}, fmt.Errorf("-cancel-after wants a count of events, got %q", flagValue(c.Args, "-cancel-after"))
	}
	thread := "thread-" + c.Agent + "-" + c.Name
	first, err := l.input(flagValue(c.Args, "-input"), thread, "run-cancelled")
	if err != nil {
		return outcome{}, err
	}
	read, err := readThenHangUp(ctx, l.url, first, after)
	if err != nil {
		return outcome{}, err
	}
	if read < after {
		return outcome{}, fmt.Errorf("the run ended after %d events, before the cancel at %d", read, after)
	}
	next, err := l.input(flagValue(c.Args, "-then"), thread, "run-after-cancel")
	if err != nil {
		return outcome{}, err
	}
	path := filepath.Join(l.tmp, c.Agent+"-"+c.Name+".json")
	if err := os.WriteFile(path, next, 0o644); err != nil {
		return outcome{}, err
	}
	return l.check(ctx, []string{"-input", path})
}

// input is the input file at path (relative to interop/) with the ids
// given.
func (l *lane) input(path, thread, run string) ([]byte, error) {
	if path == "" {
		return nil, errors.New("no -input")
	}
	b, err := os.ReadFile(filepath.Join(l.dir, path))
	if err != nil {
		return nil, err
	}
	var in map[string]any
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	in["threadId"], in["runId"] = thread, run
	return json.Marshal(in)
}

// readThenHangUp posts body and reads the SSE answer until it has seen n
// events, then closes the connection. It says how many it read.
func readThenHangUp(ctx context.Context, url string, body []byte, n int) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close() // the hang-up, before the stream's end
	events := 0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for events < n && sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data:") {
			events++
		}
	}
	return events, nil
}
