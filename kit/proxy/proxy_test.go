package proxy_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/check"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server"
	"github.com/agent-analysis/agent-analysis/server/library"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// ours is this project's server without delays, on loopback: its root URL.
func ours(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(server.New(server.Config{NoDelay: true}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// upstream is an agent that answers as handle says.
func upstream(t *testing.T, handle http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(handle)
	t.Cleanup(srv.Close)
	return srv.URL
}

// through is a proxy to up, on loopback, and the runs it reports.
type through struct {
	url  string
	p    *proxy.Proxy
	runs chan proxy.Run
}

func start(t *testing.T, cfg proxy.Config) *through {
	t.Helper()
	runs := make(chan proxy.Run, 64)
	cfg.Report = func(r proxy.Run) { runs <- r }
	p, err := proxy.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(func() {
		srv.Close()
		p.Close()
	})
	return &through{url: srv.URL, p: p, runs: runs}
}

// next is the next run the proxy reports.
func (th *through) next(t *testing.T) proxy.Run {
	t.Helper()
	select {
	case r := <-th.runs:
		return r
	case <-t.Context().Done():
		t.Fatal("no run reported")
	}
	return proxy.Run{}
}

// client is an HTTP client of its own, which follows no redirect and
// keeps no connection after the test.
func client(t *testing.T) *http.Client {
	transport := &http.Transport{DisableCompression: true}
	t.Cleanup(transport.CloseIdleConnections)
	return &http.Client{Transport: transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// post posts body and reads the whole answer.
func post(t *testing.T, c *http.Client, url string, body []byte) (*http.Response, []byte) {
	return postAccepting(t, c, url, body, "text/event-stream")
}

// postAccepting posts body asking for the encoding accept names.
func postAccepting(t *testing.T, c *http.Client, url string, body []byte, accept string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return resp, data
}

func ruleIDs(failures []rules.Failure) []string {
	var out []string
	for _, f := range failures {
		out = append(out, f.Rule)
	}
	slices.Sort(out)
	return out
}

// Every built-in script, through the proxy in front of our server: the
// client gets the bytes a direct request gets, and the proxy's verdict is
// check -url's for the same run, rule for rule, the engine's event
// numbered from 1.
func TestEveryBuiltInScriptThroughTheProxy(t *testing.T) {
	direct := ours(t)
	th := start(t, proxy.Config{Upstream: direct + "/api/agent-analysis"})
	c := client(t)
	for _, name := range library.BuiltIn().Names() {
		t.Run(name, func(t *testing.T) {
			in, _, err := agent.NewInput(nil, agent.Inputs{State: []byte(`{"services":[]}`), Scenario: name})
			if err != nil {
				t.Fatal(err)
			}
			body, _, _ := in.Request("")
			want, wantBody := post(t, c, direct+"/api/agent-analysis", body)
			got, gotBody := post(t, c, th.url, body)
			if got.StatusCode != want.StatusCode || got.Header.Get("Content-Type") != want.Header.Get("Content-Type") {
				t.Errorf("answer %d %q, direct %d %q", got.StatusCode, got.Header.Get("Content-Type"), want.StatusCode, want.Header.Get("Content-Type"))
			}
			if !bytes.Equal(gotBody, wantBody) {
				t.Errorf("the client got other bytes through the proxy:\n%s\ndirect:\n%s", gotBody, wantBody)
			}
			run := th.next(t)

			ex := agent.Run(t.Context(), agent.Request{URL: direct + "/api/agent-analysis", Input: in})
			res := check.Live(name, ex)
			var wantRules []string
			for _, failure := range res.Failures {
				wantRules = append(wantRules, failure.Rule)
			}
			slices.Sort(wantRules)
			if run.OK() != res.OK || !slices.Equal(ruleIDs(run.Failures), wantRules) {
				t.Errorf("proxy: %v %v; check -url: %v %v\n%s", run.OK(), ruleIDs(run.Failures), res.OK, wantRules, strings.Join(run.Lines(true), "\n"))
			}
			if run.ThreadID != in.ThreadID || run.RunID != in.RunID || run.Events != ex.Transport.Events || run.Bytes != int64(len(wantBody)) {
				t.Errorf("run %+v, want thread %s run %s, %d events, %d bytes", run, in.ThreadID, in.RunID, ex.Transport.Events, len(wantBody))
			}
			if v := ex.Violation; v != nil {
				for _, failure := range run.Failures {
					if failure.Rule == v.Rule.ID() && (failure.Event != v.Index+1 || failure.Page() != v.Rule.URL()) {
						t.Errorf("%s at event %d (%s), want event %d (%s)", failure.Rule, failure.Event, failure.Page(), v.Index+1, v.Rule.URL())
					}
				}
			}
			line := run.Lines(false)[0]
			switch {
			case run.OK() && !strings.HasPrefix(line, fmt.Sprintf("ok   thread %s run %s · %d events", in.ThreadID, in.RunID, run.Events)):
				t.Errorf("line %q", line)
			case !run.OK() && !strings.HasPrefix(line, fmt.Sprintf("FAIL thread %s run %s: %s", in.ThreadID, in.RunID, run.Failures[0].Rule)):
				t.Errorf("line %q", line)
			}
		})
	}
	if s := th.p.Summary(); s.Runs != len(library.BuiltIn().Names()) {
		t.Errorf("summary %v", s)
	}
}

// The request's path joins the upstream's: / is the upstream URL itself,
// and any other path is under it; other methods pass unjudged.
func TestPathsJoinTheUpstreams(t *testing.T) {
	direct := ours(t)
	th := start(t, proxy.Config{Upstream: direct})
	c := client(t)
	body := []byte(`{"threadId":"t1","runId":"r1","messages":[],"forwardedProps":{"scenario":"normal"}}`)
	resp, data := post(t, c, th.url+"/api/agent-analysis", body)
	if resp.StatusCode != 200 || !bytes.Contains(data, []byte("RUN_FINISHED")) {
		t.Fatalf("%d %s", resp.StatusCode, data)
	}
	if run := th.next(t); !run.OK() || run.Path != "/api/agent-analysis" || run.Events != 6 {
		t.Errorf("%+v", run)
	}
	health, err := c.Get(th.url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	ok, _ := io.ReadAll(health.Body)
	health.Body.Close()
	if string(ok) != "ok\n" {
		t.Errorf("healthz %q", ok)
	}
	// The POST to / went to the upstream's root, a page, not the API.
	resp, _ = post(t, c, th.url+"/", body)
	if run := th.next(t); resp.StatusCode < 300 || run.OK() || run.Failures[0].Rule != rules.HTTPStatus {
		t.Errorf("%d %+v", resp.StatusCode, run)
	}
	select {
	case r := <-th.runs:
		t.Errorf("a GET was judged: %+v", r)
	default:
	}
}

// A client's input the engine refuses is reported with its field, and
// the stream judged regardless; a resume is checked against the
// interrupts the thread's previous run left open.
func TestInputAndResume(t *testing.T) {
	direct := ours(t)
	th := start(t, proxy.Config{Upstream: direct + "/api/agent-analysis"})
	c := client(t)

	resp, _ := post(t, c, th.url, []byte(`{"threadId":"t1","runId":"r1","messages":{},"forwardedProps":{"scenario":"normal"}}`))
	run := th.next(t)
	if resp.StatusCode != 400 || run.OK() || run.Failures[0].Rule != rules.Input || run.Failures[0].Field != "messages" ||
		!slices.Contains(ruleIDs(run.Failures), rules.HTTPStatus) {
		t.Errorf("%d %+v", resp.StatusCode, run.Failures)
	}

	// The approval scenario ends interrupted: a resume that answers
	// nothing it asked is refused by its field, one that answers it all
	// is not.
	first := []byte(`{"threadId":"th-a","runId":"r1","messages":[],"state":{"services":[]},"forwardedProps":{"scenario":"approval"}}`)
	_, stream := post(t, c, th.url, first)
	if run := th.next(t); !run.OK() {
		t.Fatalf("approval: %v", run.Lines(true))
	}
	pending := pendingOf(t, first, stream)
	bad := []byte(`{"threadId":"th-a","runId":"r2","messages":[],"resume":[{"interruptId":"nope","status":"cancelled"}],"forwardedProps":{"scenario":"approval"}}`)
	post(t, c, th.url, bad)
	run = th.next(t)
	if run.OK() || run.Failures[0].Rule != rules.Resume || run.Failures[0].Field != "resume/0/interruptId" {
		t.Errorf("a resume naming no interrupt: %v", run.Lines(true))
	}

	// The bad resume left the thread's last run judged; a second thread
	// resumes properly.
	second := bytes.ReplaceAll(first, []byte("th-a"), []byte("th-b"))
	_, stream = post(t, c, th.url, second)
	th.next(t)
	pending = pendingOf(t, second, stream)
	answers := make([]agui.Answer, len(pending.Interrupts))
	for i, in := range pending.Interrupts {
		answers[i] = agui.Answer{InterruptID: in.ID, Status: agui.Abandoned}
	}
	base, _, _ := agui.ReadInput(second)
	resume, err := pending.Resume(base, "r2", answers, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	good, _, _ := resume.Request("")
	post(t, c, th.url, good)
	run = th.next(t)
	if slices.Contains(ruleIDs(run.Failures), rules.Resume) {
		t.Errorf("a covering resume: %v", run.Lines(true))
	}

	// A resume on a thread the proxy never saw is noted, not failed.
	post(t, c, th.url, bytes.ReplaceAll(good, []byte("th-b"), []byte("th-unknown")))
	run = th.next(t)
	if slices.Contains(ruleIDs(run.Failures), rules.Resume) || !strings.Contains(strings.Join(run.Notes, "\n"), "saw no earlier run") {
		t.Errorf("an unknown thread's resume: %v", run.Lines(true))
	}
}

// pendingOf is what a stream left open, as the engine reads it.
func pendingOf(t *testing.T, input, stream []byte) agui.Pending {
	t.Helper()
	in, _, err := agui.ReadInput(input)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := agui.NewConsumer(in, agui.Options{})
	for frame := range strings.SplitSeq(string(stream), "\n\n") {
		if data, ok := strings.CutPrefix(frame, "data: "); ok {
			c.Feed([]byte(data))
		}
	}
	p, ok := c.Pending()
	if !ok {
		t.Fatalf("the stream left nothing open:\n%s", stream)
	}
	return p
}

// The log holds each run as record writes it: check judges it as the
// proxy did.
func TestLog(t *testing.T) {
	direct := ours(t)
	path := t.TempDir() + "/traffic.json"
	th := start(t, proxy.Config{Upstream: direct + "/api/agent-analysis", Log: path})
	c := client(t)
	for _, scenario := range []string{"normal", "events-after-finish"} {
		before := time.Now().Truncate(time.Millisecond)
		post(t, c, th.url, []byte(`{"threadId":"t1","runId":"r1","messages":[],"forwardedProps":{"scenario":"`+scenario+`"}}`))
		run := th.next(t)
		if s, err := script.ReadFile(run.Logged); err != nil || s.RecordedAt.Before(before) || s.RecordedAt.After(time.Now()) {
			t.Errorf("%s: recordedAt %v, asked at %v (%v)", scenario, s.RecordedAt, before, err)
		}
		want := proxy.LogPath(path, map[string]int{"normal": 1, "events-after-finish": 2}[scenario])
		if run.Logged != want {
			t.Fatalf("%s logged to %q, want %q", scenario, run.Logged, want)
		}
		res := check.File(run.Logged, false)[0]
		var got []string
		for _, f := range res.Failures {
			got = append(got, f.Rule)
		}
		slices.Sort(got)
		if res.OK != run.OK() || !slices.Equal(got, ruleIDs(run.Failures)) {
			t.Errorf("%s: check says %v %v, the proxy %v", scenario, res.OK, got, run.Lines(false))
		}
	}
}

// The binary transport through the proxy: the client gets the agent's
// bytes unchanged, and the proxy judges the run as check -url judges it
// over binary, rule for rule.
func TestEveryBuiltInScriptThroughTheProxyInBinary(t *testing.T) {
	direct := ours(t)
	th := start(t, proxy.Config{Upstream: direct + "/api/agent-analysis"})
	c := client(t)
	judged := 0
	for _, name := range library.BuiltIn().Names() {
		in, _, _ := agent.NewInput(nil, agent.Inputs{State: []byte(`{"services":[]}`), Scenario: name})
		body, _, _ := in.Request("")
		want, wantBody := postAccepting(t, c, direct+"/api/agent-analysis", body, proto.MediaType)
		got, gotBody := postAccepting(t, c, th.url, body, proto.MediaType)
		run := th.next(t)
		if want.StatusCode == http.StatusNotAcceptable {
			continue
		}
		judged++
		if got.Header.Get("Content-Type") != proto.MediaType || !bytes.Equal(gotBody, wantBody) {
			t.Errorf("%s: %q, %d bytes through the proxy; %d direct", name, got.Header.Get("Content-Type"), len(gotBody), len(wantBody))
		}
		res := check.Live(name, agent.Run(t.Context(), agent.Request{URL: direct + "/api/agent-analysis", Input: in, Binary: true}))
		var wantRules []string
		for _, f := range res.Failures {
			wantRules = append(wantRules, f.Rule)
		}
		slices.Sort(wantRules)
		if run.OK() != res.OK || !slices.Equal(ruleIDs(run.Failures), wantRules) || run.ContentType != proto.MediaType {
			t.Errorf("%s: proxy %v %v; check -url %v %v", name, run.OK(), ruleIDs(run.Failures), res.OK, wantRules)
		}
	}
	if judged < 30 {
		t.Errorf("%d scripts judged in binary", judged)
	}
}

// writeLog is a client's side of a proxy's answer: what reached it, in
// order. A flush is what puts bytes on the wire.
type writeLog struct {
	header http.Header
	calls  []string
}

func (w *writeLog) Header() http.Header { return w.header }
func (w *writeLog) WriteHeader(code int) {
	w.calls = append(w.calls, fmt.Sprint("header ", code))
}
func (w *writeLog) Write(p []byte) (int, error) {
	w.calls = append(w.calls, "write")
	return len(p), nil
}
func (w *writeLog) Flush() { w.calls = append(w.calls, "flush") }

// A stream's headers are flushed at once, before its first event; an
// answer of known length was whole before it was sent, and its headers go
// out with its bytes, in one flush.
func TestHeadersFlushedAloneOnlyForAStream(t *testing.T) {
	for _, c := range []struct {
		name   string
		handle http.HandlerFunc
		before []string // what reached the client before the first bytes
	}{
		{"stream", func(w http.ResponseWriter, r *http.Request) {
			sse(w)
			io.WriteString(w, started)
		}, []string{"header 200", "flush"}},
		{"known length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, started) // net/http sets its Content-Length
		}, []string{"header 200"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := proxy.New(proxy.Config{Upstream: upstream(t, c.handle)})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			w := &writeLog{header: http.Header{}}
			req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/", bytes.NewReader(input))
			p.ServeHTTP(w, req)
			first := slices.Index(w.calls, "write")
			if first < 0 || !slices.Equal(w.calls[:first], c.before) || w.calls[len(w.calls)-1] != "flush" {
				t.Errorf("%q: want %q, then the bytes, each write flushed", w.calls, c.before)
			}
		})
	}
}

// A run whose script would be over script.MaxBytes is not logged, and a
// note says so: the kit would refuse to read it. Empty comments, 2 bytes
// on the wire, take some 50 each as a script's frames; an input near the
// bound leaves no room for the stream.
func TestLogStaysWithinAScript(t *testing.T) {
	const finished = "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"
	comments := bytes.Repeat([]byte(":\n"), 400_000) // 800 KB: within the judge's backlog
	large := []byte(`{"threadId":"t1","runId":"r1","messages":[{"id":"m1","role":"user","content":"` +
		strings.Repeat("x", script.MaxBytes-100) + `"}]}`)
	for _, c := range []struct {
		name     string
		input    []byte
		comments []byte
		note     string
	}{
		{"empty comments", input, comments, "not logged: the stream is over 16 MiB as a script"},
		{"a large input", large, nil, "not logged: the script would be"},
	} {
		t.Run(c.name, func(t *testing.T) {
			up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				sse(w)
				io.WriteString(w, started)
				w.Write(c.comments)
				io.WriteString(w, "\n"+finished)
			})
			path := t.TempDir() + "/traffic.json"
			th := start(t, proxy.Config{Upstream: up, Log: path})
			post(t, client(t), th.url, c.input)
			run := th.next(t)
			info, err := os.Stat(path)
			if err == nil {
				t.Errorf("a script of %.1f MiB was logged", float64(info.Size())/(1<<20))
			}
			if run.Logged != "" || !strings.Contains(strings.Join(run.Notes, "\n"), c.note) {
				t.Errorf("logged to %q: %q", run.Logged, run.Lines(true))
			}
		})
	}
}
