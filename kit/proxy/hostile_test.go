package proxy_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
)

var input = []byte(`{"threadId":"t1","runId":"r1","messages":[]}`)

const started = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"

// sse starts an event-stream answer.
func sse(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
}

// An upstream that never answers is waited for until the client gives
// up; then its request is cancelled, and the run reported.
func TestUpstreamNeverAnswers(t *testing.T) {
	arrived, cancelled := make(chan struct{}), make(chan struct{})
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		close(arrived)
		<-r.Context().Done()
		close(cancelled)
	})
	th := start(t, proxy.Config{Upstream: up})
	ctx, giveUp := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, th.url, bytes.NewReader(input))
		resp, err := client(t).Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	<-arrived
	giveUp()
	<-cancelled
	if err := <-errc; err == nil {
		t.Error("the client got an answer")
	}
	run := th.next(t)
	if !run.OK() || run.Status != 0 || !strings.Contains(run.Cancelled, "before the agent answered") || th.p.Summary().Failed != 0 {
		t.Errorf("%v", run.Lines(true))
	}
}

// A stream sent a byte at a time reaches the client whole, and is judged
// as any other.
func TestUpstreamTrickles(t *testing.T) {
	stream, err := os.ReadFile("../../server/testdata/normal.sse")
	if err != nil {
		t.Fatal(err)
	}
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		for i := range stream {
			w.Write(stream[i : i+1])
			w.(http.Flusher).Flush()
		}
	})
	th := start(t, proxy.Config{Upstream: up})
	_, got := post(t, client(t), th.url, input)
	if !bytes.Equal(got, stream) {
		t.Errorf("the client got %d bytes, not the %d sent", len(got), len(stream))
	}
	if run := th.next(t); !run.OK() || run.Events != 6 || run.Bytes != int64(len(stream)) {
		t.Errorf("%v", run.Lines(true))
	}
}

// A 50 MiB event passes whole; the judge stops at the engine's bound, and
// says so.
func TestUpstreamSendsAHugeEvent(t *testing.T) {
	const size = 50 << 20
	pattern := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		io.WriteString(w, started+`data: {"type":"CUSTOM","name":"big","value":"`)
		for range size / len(pattern) {
			if _, err := w.Write(pattern); err != nil {
				return
			}
		}
		io.WriteString(w, "\"}\n\n")
	})
	th := start(t, proxy.Config{Upstream: up})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, th.url, bytes.NewReader(input))
	resp, err := client(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	h := sha256.New()
	n, err := io.Copy(h, resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.New()
	io.WriteString(want, started+`data: {"type":"CUSTOM","name":"big","value":"`)
	for range size / len(pattern) {
		want.Write(pattern)
	}
	io.WriteString(want, "\"}\n\n")
	if !bytes.Equal(h.Sum(nil), want.Sum(nil)) {
		t.Errorf("the client got %d bytes, not what was sent", n)
	}
	run := th.next(t)
	if run.OK() || run.Failures[0].Rule != agui.Limit.ID() || run.Failures[0].Event != 2 || run.Bytes != n {
		t.Errorf("%v", run.Lines(true))
	}
}

// An upstream that ends its stream inside an event: the client gets what
// was sent, and the proxy reports the cut event and the run left active.
func TestUpstreamEndsMidEvent(t *testing.T) {
	const sent = started + `data: {"type":"STATE_SNAPSHOT","snap`
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		io.WriteString(w, sent)
	})
	th := start(t, proxy.Config{Upstream: up})
	_, got := post(t, client(t), th.url, input)
	if string(got) != sent {
		t.Errorf("got %q", got)
	}
	if run := th.next(t); !slices.Equal(ruleIDs(run.Failures), []string{rules.SSEFraming, rules.Truncated}) {
		t.Errorf("%v", run.Lines(true))
	}
}

// An upstream whose connection breaks mid-event breaks the client's
// stream too: it does not end as if whole.
func TestUpstreamBreaksMidEvent(t *testing.T) {
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 1000\r\n\r\n%sdata: {\"type\":", started)
		buf.Flush()
	})
	th := start(t, proxy.Config{Upstream: up})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, th.url, bytes.NewReader(input))
	resp, err := client(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil || !strings.HasPrefix(string(got), started) {
		t.Errorf("the client's stream ended whole: %q, %v", got, err)
	}
	run := th.next(t)
	if run.OK() || run.Failures[0].Rule != rules.Truncated || !strings.Contains(run.Failures[0].Text, "the connection broke") {
		t.Errorf("%v", run.Lines(true))
	}
}

// An HTML error page, or HTML with a 200, passes as it came, reported.
func TestUpstreamAnswersHTML(t *testing.T) {
	const page = "<!doctype html><title>Sign in</title><h1>Please sign in</h1>"
	for status, rule := range map[int]string{http.StatusInternalServerError: rules.HTTPStatus, http.StatusOK: rules.ContentType} {
		up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("X-Agent", "yes")
			w.WriteHeader(status)
			io.WriteString(w, page)
		})
		th := start(t, proxy.Config{Upstream: up})
		resp, got := post(t, client(t), th.url, input)
		if resp.StatusCode != status || string(got) != page || resp.Header.Get("X-Agent") != "yes" {
			t.Errorf("%d: the client got %d %q %v", status, resp.StatusCode, got, resp.Header)
		}
		run := th.next(t)
		if run.OK() || run.Failures[0].Rule != rule || !strings.Contains(run.Failures[0].Text, "Please sign in") {
			t.Errorf("%d: %v", status, run.Lines(true))
		}
	}
}

// A redirect is passed to the client, not followed.
func TestUpstreamRedirects(t *testing.T) {
	requests := 0
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		requests++
		http.Redirect(w, r, "http://elsewhere.invalid/agui", http.StatusFound)
	})
	th := start(t, proxy.Config{Upstream: up})
	resp, _ := post(t, client(t), th.url, input)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "http://elsewhere.invalid/agui" {
		t.Errorf("%d %v", resp.StatusCode, resp.Header)
	}
	run := th.next(t)
	if run.OK() || run.Failures[0].Rule != rules.HTTPStatus || !strings.Contains(run.Failures[0].Text, "not followed") || requests != 1 {
		t.Errorf("%d requests: %v", requests, run.Lines(true))
	}
}

// An upstream that refuses the connection is a 502 problem from the
// proxy.
func TestUpstreamRefuses(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	th := start(t, proxy.Config{Upstream: "http://" + addr + "/agui"})
	resp, got := post(t, client(t), th.url, input)
	if resp.StatusCode != http.StatusBadGateway || resp.Header.Get("Content-Type") != "application/problem+json" || !bytes.Contains(got, []byte("could not be reached")) {
		t.Errorf("%d %v %s", resp.StatusCode, resp.Header, got)
	}
	if run := th.next(t); run.OK() || run.Failures[0].Rule != rules.Unreachable {
		t.Errorf("%v", run.Lines(true))
	}
}

// A client that disconnects mid-stream cancels the upstream's request.
func TestClientLeaves(t *testing.T) {
	cancelled := make(chan struct{})
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		io.WriteString(w, started)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(cancelled)
	})
	th := start(t, proxy.Config{Upstream: up})
	ctx, leave := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, th.url, bytes.NewReader(input))
	resp, err := client(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(resp.Body).ReadString('\n')
	if !strings.Contains(line, "RUN_STARTED") {
		t.Fatalf("%q", line)
	}
	leave()
	resp.Body.Close()
	<-cancelled
	// A user pressing Stop breaks no rule: the run is cancelled, not
	// failed, and the stream's truncation is not held against the agent.
	if run := th.next(t); !run.OK() || !strings.HasPrefix(run.Cancelled, "the client cancelled after 1 events") || run.Events != 1 ||
		!strings.HasPrefix(run.Lines(false)[0], "ok   thread ") || !strings.Contains(run.Lines(false)[0], " · the client cancelled after 1 events") {
		t.Errorf("%v", run.Lines(true))
	}
}

// A client that leaves as soon as it has the last event, before the proxy
// has read the agent's end of the stream, cancelled nothing: the run is
// whole. The agent's end comes only once the client has gone.
func TestClientLeavesAfterTheLastEvent(t *testing.T) {
	stream := started + "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"
	th := start(t, proxy.Config{Upstream: "http://agent.invalid", Transport: endAfterLeaving(stream)})
	ctx, leave := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, th.url, bytes.NewReader(input))
	resp, err := client(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(stream))
	if _, err := io.ReadFull(resp.Body, got); err != nil || string(got) != stream {
		t.Fatalf("%q, %v", got, err)
	}
	leave()
	resp.Body.Close()
	if run := th.next(t); !run.OK() || run.Cancelled != "" || run.Events != 2 {
		t.Errorf("%v", run.Lines(true))
	}
}

// endAfterLeaving is an agent that sends stream whole, and its end (EOF)
// once the proxy's request to it is cancelled: the client has gone.
type endAfterLeaving string

func (s endAfterLeaving) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: &lastReadWaits{data: []byte(s), done: r.Context().Done()}, Request: r}, nil
}

type lastReadWaits struct {
	data []byte
	done <-chan struct{}
}

func (b *lastReadWaits) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		<-b.done
		return 0, io.EOF
	}
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}

func (b *lastReadWaits) Close() error { return nil }

// A client that never reads is dropped after the write timeout, and the
// upstream's request cancelled: the proxy is not pinned.
func TestClientNeverReads(t *testing.T) {
	cancelled := make(chan struct{})
	var first sync.Once
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		endless := false
		first.Do(func() { endless = true })
		sse(w)
		io.WriteString(w, started)
		if !endless {
			return
		}
		defer close(cancelled)
		event := []byte(`data: {"type":"CUSTOM","name":"filler","value":"` + strings.Repeat("x", 64<<10) + "\"}\n\n")
		for {
			if _, err := w.Write(event); err != nil {
				return
			}
		}
	})
	th := start(t, proxy.Config{Upstream: up, WriteTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(th.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(input), input)
	<-cancelled
	run := th.next(t)
	if run.OK() || !slices.Contains(ruleIDs(run.Failures), rules.Stalled) {
		t.Errorf("%v", run.Lines(true))
	}
	// The proxy is still up.
	if _, got := post(t, client(t), th.url, input); len(got) == 0 {
		t.Error("nothing after a stalled client")
	}
	th.next(t)
}

// Authorization and cookies reach the upstream; the report never holds
// them, nor the query.
func TestCredentialsPassUnlogged(t *testing.T) {
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" || r.Header.Get("Cookie") != "session=c00kie" || r.URL.Query().Get("key") != "k3y" {
			http.Error(w, "no credentials", http.StatusUnauthorized)
			return
		}
		sse(w)
		io.WriteString(w, started+"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	})
	th := start(t, proxy.Config{Upstream: up})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, th.url+"/?key=k3y", bytes.NewReader(input))
	req.Header.Set("Authorization", "Bearer s3cret")
	req.Header.Set("Cookie", "session=c00kie")
	resp, err := client(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	run := th.next(t)
	text := fmt.Sprintf("%+v %s", run, strings.Join(run.Lines(true), "\n"))
	if !run.OK() || strings.Contains(text, "s3cret") || strings.Contains(text, "c00kie") || strings.Contains(text, "k3y") {
		t.Errorf("%s", text)
	}
}

// Hop-by-hop headers, and those a Connection header names, go neither
// way; every other header goes as it came. With CORS origins the proxy
// answers CORS itself: the upstream's Access-Control-* headers are
// dropped and its Vary joins the proxy's.
func TestOnlyEndToEndHeadersPass(t *testing.T) {
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		for _, name := range []string{"X-Client-Hop", "Proxy-Authorization", "Te"} {
			if v := r.Header.Get(name); v != "" {
				http.Error(w, name+" reached the agent: "+v, http.StatusBadRequest)
				return
			}
		}
		if got := r.Header.Values("X-Trace"); !slices.Equal(got, []string{"a", "b"}) {
			http.Error(w, fmt.Sprintf("X-Trace %q", got), http.StatusBadRequest)
			return
		}
		w.Header().Set("Connection", "x-private")
		w.Header().Set("X-Private", "hop")
		w.Header().Set("Keep-Alive", "timeout=5")
		w.Header().Set("X-Agent", "a")
		w.Header().Set("Vary", "Accept")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		sse(w)
		io.WriteString(w, started+"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	})
	for _, origins := range [][]string{nil, {"http://localhost:5173"}} {
		th := start(t, proxy.Config{Upstream: up, CORSOrigins: origins})
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, th.url, bytes.NewReader(input))
		req.Header.Set("Connection", "X-Client-Hop")
		req.Header.Set("X-Client-Hop", "1")
		req.Header.Set("Proxy-Authorization", "Basic eA==")
		req.Header.Add("X-Trace", "a")
		req.Header.Add("X-Trace", "b")
		req.Header.Set("Origin", "http://localhost:5173")
		resp, err := client(t).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("CORS %q: %d %s", origins, resp.StatusCode, body)
		}
		if resp.Header.Get("X-Private") != "" || resp.Header.Get("Keep-Alive") != "" || resp.Header.Get("X-Agent") != "a" {
			t.Errorf("CORS %q: the client got %v", origins, resp.Header)
		}
		vary, allow := resp.Header.Values("Vary"), resp.Header.Get("Access-Control-Allow-Origin")
		if origins == nil && (!slices.Equal(vary, []string{"Accept"}) || allow != "*") {
			t.Errorf("no CORS: Vary %q, Access-Control-Allow-Origin %q; want the upstream's", vary, allow)
		}
		if origins != nil && (!slices.Contains(vary, "Accept") || !slices.Contains(vary, "Origin") || allow != origins[0]) {
			t.Errorf("CORS: Vary %q, Access-Control-Allow-Origin %q; want both Varys and the proxy's own answer", vary, allow)
		}
		if run := th.next(t); !run.OK() || run.ContentType != "text/event-stream" {
			t.Errorf("CORS %q: %s", origins, strings.Join(run.Lines(true), "\n"))
		}
	}
}

// A header the agent's Connection header names does not reach the client,
// and the answer is judged as the client gets it, without the header: no
// Content-Type (and none sniffed for it), or gzip bytes with no
// Content-Encoding.
func TestHeadersConnectionNamesAreJudgedAbsent(t *testing.T) {
	const stream = started + "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"
	for _, c := range []struct {
		name, connection string
		flush            bool // a stream; else an answer of known length
	}{
		{"Content-Type of a stream", "Content-Type", true},
		{"Content-Type of an answer of known length", "Content-Type", false},
		{"Content-Encoding", "Content-Encoding", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Connection", c.connection)
				w.Header().Set("Content-Type", "text/event-stream")
				var body io.Writer = w
				if c.connection == "Content-Encoding" {
					w.Header().Set("Content-Encoding", "gzip")
					z := gzip.NewWriter(w)
					defer z.Close()
					body = z
				}
				if c.flush {
					w.(http.Flusher).Flush()
				}
				io.WriteString(body, stream)
			})
			th := start(t, proxy.Config{Upstream: up})
			resp, _ := post(t, client(t), th.url, input)
			if resp.Header.Get(c.connection) != "" {
				t.Fatalf("the client got %s %q", c.connection, resp.Header.Get(c.connection))
			}
			run := th.next(t)
			if run.OK() || run.ContentType != resp.Header.Get("Content-Type") ||
				(c.connection == "Content-Type" && run.Failures[0].Rule != rules.ContentType) {
				t.Errorf("the client got Content-Type %q; judged %q: %q", resp.Header.Get("Content-Type"), run.ContentType, run.Lines(true))
			}
		})
	}
}

// An informational answer (103 Early Hints) reaches the client as the
// agent sent it, its own headers with it and not after it; the CORS
// headers the proxy answers with stay on the final answer.
func TestInformationalAnswersPass(t *testing.T) {
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</style.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Del("Link")
		sse(w)
		io.WriteString(w, started+"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	})
	for _, origins := range [][]string{nil, {"http://localhost:5173"}} {
		th := start(t, proxy.Config{Upstream: up, CORSOrigins: origins})
		var codes []int
		var links []string
		trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
			codes, links = append(codes, code), append(links, h.Get("Link"))
			return nil
		}}
		req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(t.Context(), trace), http.MethodPost, th.url, bytes.NewReader(input))
		req.Header.Set("Origin", "http://localhost:5173")
		resp, err := client(t).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if !slices.Equal(codes, []int{http.StatusEarlyHints}) || !slices.Equal(links, []string{"</style.css>; rel=preload"}) {
			t.Errorf("CORS %q: the client got informational answers %v, links %q", origins, codes, links)
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Link") != "" || (origins != nil && resp.Header.Get("Access-Control-Allow-Origin") != origins[0]) {
			t.Errorf("CORS %q: then %d %v", origins, resp.StatusCode, resp.Header)
		}
		if run := th.next(t); !run.OK() {
			t.Errorf("%q", run.Lines(true))
		}
	}
	// An HTTP/1.0 client is sent none.
	th := start(t, proxy.Config{Upstream: up})
	conn, err := net.Dial("tcp", strings.TrimPrefix(th.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.0\r\nHost: proxy\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(input), input)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("HTTP/1.0: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	th.next(t)
}
