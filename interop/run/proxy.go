package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agent-analysis/agent-analysis/kit/agent"
)

// exchangeHeader names each exchange the lane sends through the proxy, so
// the hop behind it can tell them apart; the proxy passes it on.
const exchangeHeader = "X-Interop-Exchange"

// proxied is agent-analysis proxy in front of a recording hop in front of
// the agent: client -> proxy -> hop -> agent. The hop keeps the bytes the
// agent sent in each exchange, to compare with those the client got.
type proxied struct {
	url   string // the proxy's address
	hop   *hop
	srv   *http.Server
	proc  *process
	lines chan string // the proxy's output, a line at a time
}

// hop forwards every request to the agent unchanged and keeps each
// answer's status, content type and body by its exchange header.
type hop struct {
	agent  string
	client *http.Client
	mu     sync.Mutex
	seen   map[string]answer
}

type answer struct {
	status      int
	contentType string
	body        []byte
}

func (h *hop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequestWithContext(r.Context(), r.Method, h.agent, r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	req.Header = r.Header.Clone()
	resp, err := h.client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	var kept bytes.Buffer
	flusher, _ := w.(http.Flusher)
	buf := make([]byte, 32*1024)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			kept.Write(buf[:n])
			w.Write(buf[:n])
			if flusher != nil {
				flusher.Flush()
			}
		}
		if err != nil {
			break
		}
	}
	h.mu.Lock()
	h.seen[r.Header.Get(exchangeHeader)] = answer{resp.StatusCode, resp.Header.Get("Content-Type"), kept.Bytes()}
	h.mu.Unlock()
}

func (h *hop) answer(exchange string) (answer, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	a, ok := h.seen[exchange]
	return a, ok
}

// startProxy starts the hop in front of agentURL and the proxy in front
// of the hop.
func startProxy(ctx context.Context, bin, agentURL, logDir, name string) (*proxied, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	// No compression asked for: the hop passes exactly the request it got.
	h := &hop{agent: agentURL, seen: map[string]answer{}, client: &http.Client{Transport: &http.Transport{DisableCompression: true}}}
	p := &proxied{hop: h, srv: &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}, lines: make(chan string, 256)}
	go p.srv.Serve(ln)
	cmd := exec.Command(bin, "proxy", "-addr", "127.0.0.1:0", "-upstream", "http://"+ln.Addr().String()+"/")
	out, w := io.Pipe()
	if p.proc, err = start(cmd, filepath.Join(logDir, name+"-proxy.log"), w); err != nil {
		p.srv.Close()
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	line, err := p.next(ctx, func(s string) bool { return strings.HasPrefix(s, "proxy: listening on ") })
	if err != nil {
		p.stop()
		return nil, fmt.Errorf("proxy: %w", err)
	}
	addr, _, _ := strings.Cut(strings.TrimPrefix(line, "proxy: listening on "), ",")
	p.url = addr + "/"
	return p, nil
}

// next is the proxy's next output line that match accepts, within 30 s.
func (p *proxied) next(ctx context.Context, match func(string) bool) (string, error) {
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return "", errors.New("the proxy exited")
			}
			if match(line) {
				return line, nil
			}
		case <-timeout:
			return "", errors.New("no line from the proxy within 30 s")
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

func (p *proxied) stop() {
	p.proc.stop()
	p.srv.Close()
}

// throughProxy posts -input's run through the proxy, compares the bytes
// the client got with those the agent sent in the same exchange, and
// reads the proxy's verdict on the run from its output.
func (l *lane) throughProxy(ctx context.Context, c Case) (outcome, error) {
	given, err := os.ReadFile(filepath.Join(l.dir, flagValue(c.Args, "-input")))
	if err != nil {
		return outcome{}, err
	}
	// The run a client sends: the input completed as check completes it.
	in, _, err := agent.NewInput(given, agent.Inputs{ThreadID: "thread-" + c.Agent + "-" + c.Name})
	if err != nil {
		return outcome{}, err
	}
	thread, run := in.ThreadID, in.RunID
	body, _, err := in.Request("")
	if err != nil {
		return outcome{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.proxy.url, bytes.NewReader(body))
	if err != nil {
		return outcome{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(exchangeHeader, c.String())
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		return outcome{}, err
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return outcome{}, fmt.Errorf("reading the proxy's answer: %v", err)
	}
	line, err := l.proxy.next(ctx, func(s string) bool {
		name := "thread " + thread + " run " + run
		return strings.HasPrefix(s, "ok   "+name+" ") || strings.HasPrefix(s, "FAIL "+name+": ")
	})
	if err != nil {
		return outcome{}, err
	}
	sent, ok := l.proxy.hop.answer(c.String())
	if !ok {
		return outcome{}, errors.New("the agent's answer never reached the hop")
	}
	o := outcome{Verdicts: []string{"ok"}}
	if rest, failed := strings.CutPrefix(line, "FAIL thread "+thread+" run "+run+": "); failed {
		rule, _, _ := strings.Cut(rest, ":")
		rule, _, _ = strings.Cut(rule, " at event")
		o.Verdicts, o.Detail = []string{rule}, rest
	}
	switch {
	case resp.StatusCode != sent.status:
		o.Verdicts = append(o.Verdicts, "changed")
		o.Detail = fmt.Sprintf("status: the agent sent %d, the client got %d", sent.status, resp.StatusCode)
	case resp.Header.Get("Content-Type") != sent.contentType:
		o.Verdicts = append(o.Verdicts, "changed")
		o.Detail = fmt.Sprintf("content type: the agent sent %q, the client got %q", sent.contentType, resp.Header.Get("Content-Type"))
	case !bytes.Equal(got, sent.body):
		o.Verdicts = append(o.Verdicts, "changed")
		o.Detail = fmt.Sprintf("body: the agent sent %d bytes, the client got %d, first difference at byte %d", len(sent.body), len(got), firstDiff(got, sent.body))
	default:
		o.Verdicts = append(o.Verdicts, "same")
		if o.Detail == "" {
			o.Detail = fmt.Sprintf("%d bytes", len(got))
		}
	}
	return o, nil
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
