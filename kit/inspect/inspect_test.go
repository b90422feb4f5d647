package inspect_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/inspect"
	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server"
	"github.com/agent-analysis/agent-analysis/server/library"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// live is a proxy in front of this project's server, watched by a store:
// run posts a scenario through it and returns the run's id in the store
// once the proxy has judged it, and the bytes the client got.
type live struct {
	store *inspect.Store
	url   string
	ended chan proxy.Run
}

func newLive(t *testing.T, keep int) *live {
	return newLiveTo(t, keep, server.New(server.Config{NoDelay: true}))
}

// newLiveTo is live in front of another agent.
func newLiveTo(t *testing.T, keep int, agentHandler http.Handler) *live {
	t.Helper()
	agentSrv := httptest.NewServer(agentHandler)
	t.Cleanup(agentSrv.Close)
	l := &live{store: inspect.NewStore(keep), ended: make(chan proxy.Run, 16)}
	p, err := proxy.New(proxy.Config{
		Upstream: agentSrv.URL + "/api/agent-analysis",
		Observer: l.store,
		Report:   func(r proxy.Run) { l.ended <- r },
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(func() { srv.Close(); p.Close() })
	l.url = srv.URL
	return l
}

func (l *live) run(t *testing.T, given []byte, in agent.Inputs, headers ...string) (string, []byte) {
	t.Helper()
	input, _, err := agent.NewInput(given, in)
	if err != nil {
		t.Fatal(err)
	}
	body, _, _ := input.Request("")
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, l.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	select {
	case <-l.ended:
	case <-t.Context().Done():
		t.Fatal("the proxy reported no run")
	}
	return l.store.Runs()[0].ID, data
}

func events(t *testing.T, s *inspect.Store, id string) []runs.Event {
	t.Helper()
	var all []runs.Event
	for {
		page, more, ok := s.Events(id, len(all), 7)
		if !ok {
			t.Fatalf("run %s is not kept", id)
		}
		all = append(all, page...)
		if !more {
			return all
		}
	}
}

// What the inspector shows of a run read from its capture is what it
// showed of the run as it passed the proxy: the same events, each marked
// with the same rules, and the same verdict; and its script, exported and
// opened again, shows the same once more.
func TestTheOfflineViewIsTheLiveView(t *testing.T) {
	l := newLive(t, 0)
	for _, name := range library.BuiltIn().Names() {
		t.Run(name, func(t *testing.T) {
			id, body := l.run(t, nil, agent.Inputs{Scenario: name, State: []byte(`{"services":[]}`)})
			liveRun, _ := l.store.Detail(id)
			liveEvents := events(t, l.store, id)

			offline := inspect.NewStore(0)
			if said := offline.LoadData(name+".sse", body); said != nil {
				t.Fatalf("the capture: %v", said)
			}
			capRun, _ := offline.Detail("1")
			// A capture holds no input: the rules that judge against it
			// cannot be judged there.
			if !needsInput[name] {
				if !sameEvents(t, events(t, offline, "1"), liveEvents, false) {
					t.Errorf("the capture's events differ from the live run's")
				}
				if capRun.Status != liveRun.Status || capRun.Rule != liveRun.Rule {
					t.Errorf("capture %s %q, live %s %q", capRun.Status, capRun.Rule, liveRun.Status, liveRun.Rule)
				}
			}

			sc, ok, err := l.store.Script(id)
			if !ok || err != nil {
				t.Fatalf("script: %v %v", ok, err)
			}
			// A live run's times are measured from its request's.
			if parsed, err := script.Parse(sc, name); err != nil || !parsed.RecordedAt.Equal(liveRun.Started.UTC().Truncate(time.Millisecond)) {
				t.Errorf("recordedAt %v, the run started %v (%v)", parsed.RecordedAt, liveRun.Started, err)
			}
			fromScript := inspect.NewStore(0)
			if said := fromScript.LoadData(name+".json", sc); said != nil {
				t.Fatalf("the script: %v", said)
			}
			scRun, _ := fromScript.Detail("1")
			if !sameEvents(t, events(t, fromScript, "1"), liveEvents, true) {
				t.Errorf("the script's events differ from the live run's")
			}
			if scRun.Status != liveRun.Status || scRun.Rule != liveRun.Rule || compact(scRun.Input) != compact(liveRun.Input) {
				t.Errorf("script %s %q, live %s %q", scRun.Status, scRun.Rule, liveRun.Status, liveRun.Rule)
			}
		})
	}
}

// needsInput are the scripts whose verdict depends on the input the run
// was asked with: its thread, the run it asked for, the state it starts from.
var needsInput = map[string]bool{"delta-on-input-state": true, "other-thread": true, "two-runs": true}

// sameEvents compares what the inspector shows of two runs' events: the
// times too, when both know them.
func sameEvents(t *testing.T, got, want []runs.Event, times bool) bool {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d events, want %d", len(got), len(want))
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if !times {
			g.AtMs, w.AtMs = 0, 0
		}
		if g.AtMs != w.AtMs && int(g.AtMs) != int(w.AtMs) { // a script keeps whole milliseconds
			t.Errorf("event %d at %v ms, want %v", i, g.AtMs, w.AtMs)
			return false
		}
		g.AtMs, w.AtMs = 0, 0
		if gj, wj := mustJSON(g), mustJSON(w); gj != wj {
			t.Errorf("event %d:\n%s\nwant\n%s", i, gj, wj)
			return false
		}
	}
	return true
}

func compact(s string) string {
	var b bytes.Buffer
	json.Compact(&b, []byte(s))
	return b.String()
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A broken run is failed by its rule, marked at the event that broke it,
// with the rule's meaning and page.
func TestABrokenRunIsMarkedAtItsEvent(t *testing.T) {
	l := newLive(t, 0)
	id, _ := l.run(t, nil, agent.Inputs{Scenario: "unknown-patch-op", State: []byte(`{"services":[]}`)})
	d, _ := l.store.Detail(id)
	if d.Status != runs.Failed && d.Status != runs.Warned {
		t.Fatalf("status %s", d.Status)
	}
	var marked []runs.Mark
	for _, ev := range events(t, l.store, id) {
		for _, m := range ev.Marks {
			if m.Rule == "" || m.Meaning == "" || !strings.HasPrefix(m.Page, "https://") {
				t.Errorf("event %d: mark %+v", ev.Index, m)
			}
			marked = append(marked, m)
		}
	}
	if len(marked) == 0 {
		t.Fatal("no event is marked")
	}
}

// An interrupted run and the run that answers it are linked both ways,
// and each shows its side: the questions, and the replies.
func TestAnInterruptAndItsResumeAreLinked(t *testing.T) {
	l := newLive(t, 0)
	first, _ := l.run(t, nil, agent.Inputs{ThreadID: "t-linked", Scenario: "approval", State: []byte(`{"services":[]}`)})
	asked, _ := l.store.Detail(first)
	if asked.Status != runs.Interrupted || len(asked.Questions) == 0 {
		t.Fatalf("first run %s, questions %v", asked.Status, asked.Questions)
	}
	resume := []byte(`{"threadId":"t-linked","resume":[{"interruptId":"` + asked.Questions[0].ID + `","status":"resolved","payload":{"approved":true}}]}`)
	second, _ := l.run(t, resume, agent.Inputs{ThreadID: "t-linked", Scenario: "approval", State: []byte(`{"services":[]}`)})
	asked, _ = l.store.Detail(first)
	answered, _ := l.store.Detail(second)
	if asked.ResumedBy != second || answered.Resumes != first {
		t.Errorf("first resumed by %q, second resumes %q", asked.ResumedBy, answered.Resumes)
	}
	if len(answered.Replies) != 1 || answered.Replies[0].InterruptID != asked.Questions[0].ID || string(answered.Replies[0].Payload) != `{"approved":true}` {
		t.Errorf("replies %+v", answered.Replies)
	}
}

// Header names are kept, never their values; the command that judges the
// run again leaves each value to the shell.
func TestHeaderValuesAreNeverKept(t *testing.T) {
	l := newLive(t, 0)
	id, _ := l.run(t, nil, agent.Inputs{Scenario: "normal", State: []byte(`{"services":[]}`)}, "Authorization", "Bearer s3cret-token", "X-Api-Key", "k3y")
	d, _ := l.store.Detail(id)
	if !slices.Contains(d.Headers, "Authorization") || !slices.Contains(d.Headers, "X-Api-Key") {
		t.Errorf("headers %v", d.Headers)
	}
	cmd, _ := l.store.Command(id)
	for _, secret := range []string{"s3cret", "k3y"} {
		if strings.Contains(mustJSON(d), secret) || strings.Contains(cmd, secret) {
			t.Errorf("the value %q was kept", secret)
		}
	}
	if !strings.Contains(cmd, `-H "Authorization: $AUTHORIZATION"`) || !strings.Contains(cmd, `-H "X-Api-Key: $X_API_KEY"`) || !strings.HasPrefix(cmd, "agent-analysis check -url 'http://127.0.0.1:") {
		t.Errorf("command:\n%s", cmd)
	}
}

// A header's name is the client's, and may hold what a shell acts on: the
// command pasted runs nothing of it, and reads each value from a variable
// a shell can name.
func TestTheCommandRunsNothingOfAHeadersName(t *testing.T) {
	l := newLive(t, 0)
	id, _ := l.run(t, nil, agent.Inputs{Scenario: "normal", State: []byte(`{"services":[]}`)}, "X-`id`", "1", "X.Token", "2", "1-Foo$HOME", "3")
	cmd, _ := l.store.Command(id)
	d, _ := l.store.Detail(id)
	_, args, _ := strings.Cut(cmd, "-url ")
	args, _, _ = strings.Cut(args, " -input")
	sh := exec.Command("sh", "-c", "printf '%s\\n' "+args)
	sh.Env = append(os.Environ(), "X__ID_=v1", "X_TOKEN=v2", "_1_FOO_HOME=v3")
	out, err := sh.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	slices.Sort(lines)
	if err != nil || strings.Join(lines, "|") != "-H|-H|-H|1-Foo$home: v3|X-`id`: v1|X.token: v2|"+d.URL {
		t.Errorf("%v: the command\n%s\ngives\n%s", err, cmd, out)
	}
}

// Stepping through a run: the state after each event, and what it changed.
func TestSteppingShowsWhatEachEventChanged(t *testing.T) {
	s := inspect.NewStore(0)
	capture := "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n" +
		"data: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"a\":1,\"b\":{\"c\":[1,2]}}}\n\n" +
		": a comment\n\n" +
		"data: {\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/b/c/1\",\"value\":3}]}\n\n" +
		"data: {\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/nope\"}]}\n\n" +
		"data: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"a\":1,\"b\":{\"c\":[1,3]},\"d\":true}}\n\n" +
		"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
	if said := s.LoadData("step.sse", []byte(capture)); said != nil {
		t.Fatal(said)
	}
	for _, c := range []struct {
		at      int
		state   string
		changed []string
		refused bool
	}{
		{-1, `{}`, nil, false},
		{0, `{}`, nil, false},
		{1, `{"a":1,"b":{"c":[1,2]}}`, []string{"/a", "/b"}, false},
		{2, `{"a":1,"b":{"c":[1,3]}}`, []string{"/b/c/1"}, false},
		{3, `{"a":1,"b":{"c":[1,3]}}`, nil, true},
		{4, `{"a":1,"b":{"c":[1,3]},"d":true}`, []string{"/d"}, false},
		{99, `{"a":1,"b":{"c":[1,3]},"d":true}`, nil, false},
	} {
		at, ok := s.At("1", c.at)
		if !ok {
			t.Fatal("run 1 not kept")
		}
		if string(at.State) != c.state || !slices.Equal(at.Changed, c.changed) || (at.Refused != "") != c.refused {
			t.Errorf("at %d: %s changed %q refused %q; want %s %q %v", c.at, at.State, at.Changed, at.Refused, c.state, c.changed, c.refused)
		}
	}
}

// The store keeps what it is told to: the last runs, each run's events
// within their bound, and tells a page that falls behind to read again
// rather than wait for it.
func TestTheStoreIsBounded(t *testing.T) {
	s := inspect.NewStore(3)
	sub := s.Subscribe()
	defer s.Unsubscribe(sub)
	capture := []byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
	for range 5 {
		s.LoadData("x.sse", capture)
	}
	var ids []string
	for _, r := range s.Runs() {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, []string{"5", "4", "3"}) {
		t.Errorf("kept %v, want the last three, newest first", ids)
	}
	if _, ok := s.Detail("1"); ok {
		t.Error("run 1 is still kept")
	}
	gone := 0
	for len(sub.C) > 0 {
		if u := <-sub.C; u.Kind == "gone" {
			gone++
		}
	}
	if gone != 2 {
		t.Errorf("%d runs said gone, want 2", gone)
	}

	// A subscriber that reads nothing never holds the store up: past its
	// buffer it loses updates, and is told so once.
	for range 3000 {
		s.LoadData("x.sse", capture)
	}
	if !sub.Lost() || sub.Lost() {
		t.Error("the full subscriber was not told, once, that it lost updates")
	}

}

// A run let go while it streams keeps nothing more, and counts nothing
// against the store's bound: runs that outlive the newer ones do not
// leave the store keeping fewer runs than it may.
func TestARunLetGoWhileItStreamsCountsNothing(t *testing.T) {
	s := inspect.NewStore(3)
	mib := `{"type":"CUSTOM","name":"x","value":"` + strings.Repeat("x", 1<<20) + `"}`
	for range inspect.MaxBytes/inspect.MaxRunBytes + 2 {
		w := s.Begin(proxy.Begin{Method: "POST", Path: "/", ThreadID: "t", RunID: "r", Started: time.Now()})
		for range 3 {
			s.LoadData("x.sse", []byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
		}
		for range inspect.MaxRunBytes >> 20 {
			w.Frame(time.Millisecond, script.Frame{Event: []byte(mib)}, agui.Judgement{})
		}
	}
	if n := len(s.Runs()); n != 3 {
		t.Errorf("the store keeps %d runs of its last 3", n)
	}
}

// A run's events past MaxRunBytes are counted, not kept, and the run
// says so.
func TestALongRunKeepsItsFirstEvents(t *testing.T) {
	s := inspect.NewStore(0)
	w := s.Begin(proxy.Begin{Method: "POST", Path: "/", ThreadID: "t", RunID: "r", Started: time.Now()})
	feed := func(event string) {
		w.Frame(time.Millisecond, script.Frame{Event: []byte(event)}, agui.Judgement{})
	}
	feed(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
	big := strings.Repeat("x", 256<<10)
	for range 80 {
		feed(`{"type":"CUSTOM","name":"n","value":"` + big + `"}`)
	}
	feed(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`)
	w.End(proxy.Run{Events: 82})
	id := s.Runs()[0].ID
	d, _ := s.Detail(id)
	kept := events(t, s, id)
	if !d.Truncated || d.Events != 82 || len(kept) != 1+(inspect.MaxRunBytes-50-inspect.EventPlace)/(256<<10+38+inspect.EventPlace) || d.Status != runs.OK {
		t.Errorf("truncated %v, %d events counted, %d kept; %s", d.Truncated, d.Events, len(kept), d.Status)
	}
}

// The API: the runs, a run, its events in pages, its exports; a run not
// kept is a 404, a bad event number a 400.
func TestTheAPI(t *testing.T) {
	s := inspect.NewStore(0)
	dir := t.TempDir()
	path := filepath.Join(dir, "it's.sse")
	os.WriteFile(path, []byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"), 0o644)
	if said := s.Load([]string{dir}); said != nil {
		t.Fatal(said)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	get := func(path string) (int, string, http.Header) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	for _, c := range []struct {
		path, want string
		status     int
	}{
		{"/api/runs", `"status":"ok"`, 200},
		{"/api/runs/1", `"source":"` + path + `"`, 200},
		{"/api/runs/1/events?from=1&limit=1", `"more":false`, 200},
		{"/api/runs/1/at/-1", `"state":{}`, 200},
		{"/api/runs/1/at/x", "a number", 400},
		{"/api/runs/9", "no such run", 404},
		{"/api/runs/9/at/0", "no such run", 404},
		{"/api/runs/1/command", `agent-analysis check '` + strings.ReplaceAll(path, `'`, `'\''`) + `'`, 200},
		{"/api/runs/1/capture", "data: {\"type\":\"RUN_STARTED\"", 200},
		{"/api/runs/1/script", `"stream"`, 200},
	} {
		status, body, header := get(c.path)
		if status != c.status || !strings.Contains(body, c.want) {
			t.Errorf("GET %s: %d %s, want %d with %s", c.path, status, body, c.status, c.want)
		}
		if header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("GET %s: a CORS header", c.path)
		}
	}
	if _, _, h := get("/api/runs/1/script"); !strings.HasPrefix(h.Get("Content-Disposition"), "attachment") {
		t.Errorf("the script is not a download: %v", h)
	}
	resp, err := http.Post(srv.URL+"/api/open?name=dropped.json", "application/json", strings.NewReader(`[{"type":"RUN_STARTED","threadId":"t","runId":"r"}]`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if list := s.Runs(); len(list) != 2 || list[0].Source != "dropped.json" || list[0].Status != runs.Failed {
		t.Errorf("after the drop: %+v", list)
	}
}

// A continuation read from a file starts from the resume its replay sent:
// the state the interrupted run left and the answers, as a live resume
// does; its steps apply to that state.
func TestAContinuationFromAFileStartsFromItsResume(t *testing.T) {
	s := inspect.NewStore(0)
	if said := s.Load([]string{"../../fixtures/approval.json"}); said != nil {
		t.Fatal(said)
	}
	d, ok := s.Detail("2") // approval/approved
	if !ok || d.RunID != "run-2" {
		t.Fatalf("%+v", d.Run)
	}
	if !strings.Contains(d.Input, `"resume"`) || !strings.Contains(d.Input, `"services"`) || len(d.Replies) != 1 || d.Resumes != "1" {
		t.Errorf("input %s, replies %+v, resumes %q", d.Input, d.Replies, d.Resumes)
	}
	// Each of its continuations resumes the run; the run names the first.
	for _, id := range []string{"3", "4"} {
		if c, _ := s.Detail(id); c.Resumes != "1" || len(c.Replies) != 1 {
			t.Errorf("continuation %s resumes %q, replies %+v", id, c.Resumes, c.Replies)
		}
	}
	if run, _ := s.Detail("1"); run.ResumedBy != "2" {
		t.Errorf("the run is resumed by %q", run.ResumedBy)
	}
	for i := -1; i < 4; i++ {
		at, ok := s.At("2", i)
		if !ok || at.Refused != "" || !strings.Contains(string(at.State), `"services"`) {
			t.Errorf("at %d: %s %q", i, at.State, at.Refused)
		}
	}
}

// A resume is linked to the run it answers even when it comes before that
// run's judge, behind the bytes, has read the run's end.
func TestAResumeBeforeItsRunIsJudgedIsLinked(t *testing.T) {
	s := inspect.NewStore(0)
	in, _, _ := agui.ReadInput([]byte(`{"threadId":"t","runId":"r1","messages":[]}`))
	c, err := agui.NewConsumer(in, agui.Options{})
	if err != nil {
		t.Fatal(err)
	}
	asked := s.Begin(proxy.Begin{Method: "POST", Path: "/", ThreadID: "t", RunID: "r1", Started: time.Now()})
	feed := func(event string) {
		asked.Frame(time.Millisecond, script.Frame{Event: []byte(event)}, c.Feed([]byte(event)))
	}
	feed(`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`)
	s.Begin(proxy.Begin{Method: "POST", Path: "/", ThreadID: "t", RunID: "r2", Started: time.Now(), Resume: true}) // the resume, first
	feed(`{"type":"RUN_FINISHED","threadId":"t","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"confirmation"}]}}`)
	first, _ := s.Detail("1")
	second, _ := s.Detail("2")
	if first.Status != runs.Interrupted || first.ResumedBy != "2" || second.Resumes != "1" {
		t.Errorf("first %s resumed by %q, second resumes %q", first.Status, first.ResumedBy, second.Resumes)
	}
}

// A live run is never linked to a file's continuation, nor a file's run to
// a live resume, though their threads have one id (thread-1 is common).
func TestRunsLinkOnlyWithinTheirSource(t *testing.T) {
	s := inspect.NewStore(0)
	in, _, _ := agui.ReadInput([]byte(`{"threadId":"thread-1","runId":"r1","messages":[]}`))
	c, _ := agui.NewConsumer(in, agui.Options{})
	live := s.Begin(proxy.Begin{Method: "POST", Path: "/", ThreadID: "thread-1", RunID: "r1", Started: time.Now()})
	feed := func(event string) {
		live.Frame(time.Millisecond, script.Frame{Event: []byte(event)}, c.Feed([]byte(event)))
	}
	feed(`{"type":"RUN_STARTED","threadId":"thread-1","runId":"r1"}`)
	if said := s.Load([]string{"../../fixtures/approval.json"}); said != nil {
		t.Fatal(said)
	}
	feed(`{"type":"RUN_FINISHED","threadId":"thread-1","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"confirmation"}]}}`)
	if d, _ := s.Detail("1"); d.ResumedBy != "" {
		t.Errorf("the live run is resumed by %q, a file's continuation", d.ResumedBy)
	}
	for _, r := range s.Runs() {
		if d, _ := s.Detail(r.ID); r.ID != "1" && d.Resumes == "1" {
			t.Errorf("run %s (%s) resumes the live run", r.ID, d.Source)
		}
	}
}
