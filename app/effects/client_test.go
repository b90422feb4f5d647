package effects_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/effects"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/fixtures/fixturetest"
	"github.com/agent-analysis/agent-analysis/server"
)

// loop runs Update with real Effects until the run's connection closes,
// like the UI shell does, and returns the final Model.
func loop(t *testing.T, endpoint, scenario string) core.Model {
	t.Helper()
	m, _ := core.Update(core.NewModel("thread-1"), core.ChoseScenario{Name: scenario})
	return loopFrom(t, endpoint, m, core.ClickedRun{})
}

// loopFrom is loop from m, starting with click.
func loopFrom(t *testing.T, endpoint string, m core.Model, click core.Msg) core.Model {
	t.Helper()
	msgs := make(chan core.Msg, 64)
	runner := effects.NewRunner(effects.Client{Endpoint: endpoint}, func(m core.Msg) { msgs <- m })
	defer runner.Wait()
	defer runner.Close()
	m, cmd := core.Update(m, click)
	runner.Perform(cmd)
	for m.Connection != 0 {
		select {
		case msg := <-msgs:
			m, cmd = core.Update(m, msg)
			runner.Perform(cmd)
		case <-time.After(10 * time.Second):
			t.Fatalf("run stuck in %#v", m.Lifecycle)
		}
	}
	if _, active := core.ActiveRun(m.Lifecycle); active {
		t.Errorf("the connection closed on an active run: %#v", m.Lifecycle)
	}
	return m
}

func latency(t *testing.T, m core.Model, id string) float64 {
	t.Helper()
	s, ok := m.Wire.Find(id)
	if !ok {
		t.Fatalf("no %s", id)
	}
	return s.Latency
}

// Every scenario and fault, streamed by the real server handler and read
// by the real client, ends as its fixture's outcome says.
func TestEveryScriptEndsAsSpecifiedAgainstTheRealServer(t *testing.T) {
	endpoint := serve(t, server.New(server.Config{NoDelay: true})) + "/api/agent-analysis"
	for _, s := range fixtures.All() {
		t.Run(s.Name, func(t *testing.T) {
			m := loop(t, endpoint, s.Name)
			reason := ""
			if f, failed := m.Lifecycle.(core.Failed); failed {
				reason = f.Reason
			}
			want := s.Ending
			if m.Lifecycle.String() != want.Status || m.Accepted != want.Accepted || !strings.Contains(reason, want.Reason) {
				t.Errorf("%s with %d accepted (%q), want %s with %d accepted (%q)",
					m.Lifecycle, m.Accepted, reason, want.Status, want.Accepted, want.Reason)
			}
		})
	}
	m := loop(t, endpoint, "normal")
	if m.Wire.Len() != 4 || latency(t, m, "api") != 145 {
		t.Errorf("normal: %+v", m.Wire.Services())
	}
}

// A stream that ends by itself leaves the Runner holding nothing of it:
// a page that plays run after run keeps no entry per run.
func TestAStreamThatEndsLetsGo(t *testing.T) {
	endpoint := serve(t, server.New(server.Config{NoDelay: true})) + "/api/agent-analysis"
	runner := effects.NewRunner(effects.Client{Endpoint: endpoint}, func(core.Msg) {})
	for g := range core.Generation(3) {
		runner.Perform(core.StartStream{Run: core.Run{Generation: g + 1, ThreadID: "t", RunID: fmt.Sprint("r", g), Scenario: "normal"}})
	}
	runner.Wait()
	if n := runner.OpenStreams(); n != 0 {
		t.Errorf("%d streams held after every one ended", n)
	}
}

// Each answer to the approval scenario's question, sent to the real
// server and its stream read by the real client, resumes the run: the
// server plays the answer's continuation on the same thread.
func TestAnswersResumeAgainstTheRealServer(t *testing.T) {
	endpoint := serve(t, server.New(server.Config{NoDelay: true})) + "/api/agent-analysis"
	for choice, api := range map[core.Choice]float64{core.Approve: 60, core.Reject: 145, core.CancelRequest: 145} {
		m := loop(t, endpoint, "approval")
		l, ok := m.Lifecycle.(core.Interrupted)
		if !ok {
			t.Fatalf("%#v", m.Lifecycle)
		}
		_, q := l.Question()
		m = loopFrom(t, endpoint, m, core.ClickedAnswer{Interrupt: q.ID, Choice: choice, At: time.Now()})
		if m.Lifecycle != (core.Completed{RunID: "run-2"}) || latency(t, m, "api") != api || m.Warned != 0 || m.Run.ThreadID != "thread-1" {
			t.Errorf("%s: %#v, api %v, %d warnings", choice, m.Lifecycle, latency(t, m, "api"), m.Warned)
		}
	}
	// Expired: only a cancellation resumes it.
	m := loop(t, endpoint, "expired-interrupt")
	_, q := m.Lifecycle.(core.Interrupted).Question()
	m = loopFrom(t, endpoint, m, core.ClickedAnswer{Interrupt: q.ID, Choice: core.CancelRequest, At: time.Now()})
	if m.Lifecycle != (core.Completed{RunID: "run-2"}) {
		t.Errorf("expired, cancelled: %#v", m.Lifecycle)
	}
}

// collect runs one stream against handler and returns what it sent.
func collect(t *testing.T, handler http.HandlerFunc) []core.Msg {
	t.Helper()
	var msgs []core.Msg
	effects.Client{Endpoint: serve(t, handler)}.Stream(context.Background(), core.Run{Generation: 3, ThreadID: "t", RunID: "r", Scenario: "normal"},
		func(m core.Msg) { msgs = append(msgs, m) })
	return msgs
}

// sse writes chunks as separate flushed writes. Natively they may reach
// the client in fewer reads; under Node the fake fetch cuts every write
// into 7-byte chunks, and agui/sse's own tests read one byte at a time.
func sse(chunks ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range chunks {
			w.Write([]byte(c))
			w.(http.Flusher).Flush()
		}
	}
}

// kinds describes the Msgs: each event's type and what the engine made
// of it, then how the stream ended.
func kinds(msgs []core.Msg) []string {
	var out []string
	for _, m := range msgs {
		switch m := m.(type) {
		case core.Received:
			s := string(m.Judgement.Type)
			if v := m.Judgement.Violation; v != nil {
				s += " (" + v.Rule.ID() + ")"
			}
			out = append(out, s)
		case core.StreamClosed:
			out = append(out, "closed "+m.Truncated)
		case core.StreamFailed:
			out = append(out, "failed ("+m.Kind.Who()+"): "+m.Reason)
		}
	}
	return out
}

func TestFragmentedFramesAndSplitUTF8(t *testing.T) {
	snapshot := `{"type":"STATE_SNAPSHOT","snapshot":{"services":[{"id":"zrh","name":"Zürich ☕","series":"Core","volume":1,"latency":2}]}}`
	cut := strings.Index(snapshot, "☕") + 1 // inside the three bytes of ☕
	msgs := collect(t, sse(
		"da", `ta: {"type":"RUN_STA`, `RTED","threadId":"t","runId":"r"}`, "\n", "\n",
		": a comment between events\n\n",
		"data: "+snapshot[:cut], snapshot[cut:]+"\r", "\n\r\n",
		"data: {\"type\":\"RUN_FINISHED\",\n", "data: \"threadId\":\"t\",\"runId\":\"r\"}\n\n",
	))
	want := []string{"RUN_STARTED", "STATE_SNAPSHOT", "RUN_FINISHED", "closed "}
	if got := kinds(msgs); strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Fatalf("got %v, want %v", got, want)
	}
	w := msgs[1].(core.Received).Judgement.Change.State.(core.Services).Wire
	if w.At(0).Name != "Zürich ☕" {
		t.Errorf("snapshot %+v", w.Services())
	}
	for _, m := range msgs {
		if ev, ok := m.(core.Received); ok && ev.Generation != 3 {
			t.Errorf("event tagged %d, want generation 3", ev.Generation)
		}
	}
}

func TestRefusedRequestsCarryTheProblemTitle(t *testing.T) {
	for _, status := range []int{413, 500} {
		msgs := collect(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"type":"about:blank","title":"Title %d","status":%d,"detail":"because"}`, status, status)
		})
		if got := kinds(msgs); len(got) != 1 || got[0] != fmt.Sprintf("failed (the connection): HTTP %d Title %d: because", status, status) {
			t.Errorf("%d: %v", status, got)
		}
	}
	msgs := collect(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "plain", http.StatusBadGateway) })
	if got := kinds(msgs); len(got) != 1 || !strings.Contains(got[0], "HTTP 502 Bad Gateway") {
		t.Errorf("plain error: %v", got)
	}
	msgs = collect(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"services":[]}`)) })
	if got := kinds(msgs); len(got) != 1 || !strings.Contains(got[0], "not an event stream") {
		t.Errorf("wrong type: %v", got)
	}
}

// The engine judges each event as it arrives; the first it rejects ends
// the reading, and a stream that just ends is judged truncated.
func TestTheEngineJudgesTheStream(t *testing.T) {
	started := `data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n\n"
	msgs := collect(t, sse(started, `data: {"type":"STATE_SNAP`))
	if got := kinds(msgs); strings.Join(got, "|") != `RUN_STARTED|closed the stream ended while run "r" was active, with no terminal event` {
		t.Errorf("premature close: %v", got)
	}
	msgs = collect(t, sse(started, "data: {not json}\n\n", started))
	if got := kinds(msgs); strings.Join(got, "|") != "RUN_STARTED| (not-an-event)" {
		t.Errorf("malformed: %v", got)
	}
	msgs = collect(t, sse(`data: {"type":"RUN_FINISHED","type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n\n", started))
	if got := kinds(msgs); len(got) != 1 || got[0] != " (not-an-event)" {
		t.Errorf("repeated name: %v", got)
	}
	msgs = collect(t, sse(`data: {"type":"RUN_STARTED","threadId":"t"}`+"\n\n"))
	if got := kinds(msgs); len(got) != 1 || got[0] != "RUN_STARTED (malformed-value)" {
		t.Errorf("a required field: %v", got)
	}
	msgs = collect(t, sse(started, `data: {"type":"NOT_AG_UI"}`+"\n\n", `data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}`+"\n\n"))
	if got := kinds(msgs); strings.Join(got, "|") != "RUN_STARTED|NOT_AG_UI|RUN_FINISHED|closed " {
		t.Errorf("an unknown type is dropped, not fatal: %v", got)
	}
	if w := msgs[1].(core.Received).Judgement.Warnings; len(w) != 1 || !strings.Contains(w[0].Text, "NOT_AG_UI") {
		t.Errorf("warnings %v", w)
	}
	msgs = collect(t, sse(started, "data: "+`{"type":"CUSTOM","name":"x","value":"`+strings.Repeat("x", 1<<20)+`"}`+"\n\n"))
	if got := kinds(msgs); len(got) != 2 || got[1] != "failed (the stream): an event is larger than 1 MiB" {
		t.Errorf("a big event: %v", got)
	}
}

// A snapshot of 64 KiB or more is read in parts, the page's thread handed
// back between them (yieldToPage: under Node, as in a page, a timer's
// task; Node has no document to say the page is hidden). It arrives whole,
// as a small one does.
func TestABigSnapshotThroughTheStream(t *testing.T) {
	services := make([]string, 2000)
	for i := range services {
		services[i] = fmt.Sprintf(`{"id":"s%d","name":"Service %d","series":"Core","volume":%d,"latency":20}`, i, i, i)
	}
	snapshot := `data: {"type":"STATE_SNAPSHOT","snapshot":{"services":[` + strings.Join(services, ",") + "]}}\n\n"
	if len(snapshot) < 2*64<<10 {
		t.Fatalf("a snapshot of %d bytes: too small to be read in parts", len(snapshot))
	}
	msgs := collect(t, sse(`data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n\n", snapshot,
		`data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}`+"\n\n"))
	if got := kinds(msgs); strings.Join(got, "|") != "RUN_STARTED|STATE_SNAPSHOT|RUN_FINISHED|closed " {
		t.Fatalf("kinds %v", got)
	}
	if n := msgs[1].(core.Received).Judgement.Change.State.(core.Services).Wire.Len(); n != 2000 {
		t.Errorf("the snapshot holds %d services", n)
	}
}

// The request is the engine's: a RunAgentInput declaring 1.1, with the
// empty services state as the state the run starts from.
func TestTheRequestIsARunAgentInput(t *testing.T) {
	var body string
	collect(t, func(w http.ResponseWriter, r *http.Request) {
		b := new(strings.Builder)
		fmt.Fprint(b, r.Method, " ", r.Header.Get("Content-Type"), " ", r.Header.Get("Accept"), " ")
		buf := make([]byte, 1024)
		n, _ := r.Body.Read(buf)
		b.Write(buf[:n])
		body = b.String()
	})
	want := `POST application/json text/event-stream {"threadId":"t","runId":"r","state":{"services":[]},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"},"protocolVersion":"1.1"}`
	if body != want {
		t.Errorf("request\n%s\nwant\n%s", body, want)
	}
}

// Cancelling the context closes the request: the server sees the client go.
func TestCancelClosesTheRequest(t *testing.T) {
	var mu sync.Mutex
	var sawDisconnect bool
	gone := make(chan struct{})
	endpoint := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(`data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		mu.Lock()
		sawDisconnect = true
		mu.Unlock()
		close(gone)
	}))
	ctx, cancel := context.WithCancel(context.Background())
	var msgs []core.Msg
	done := make(chan struct{})
	go func() {
		defer close(done)
		effects.Client{Endpoint: endpoint}.Stream(ctx, core.Run{Generation: 1, ThreadID: "t", RunID: "r"}, func(m core.Msg) {
			msgs = append(msgs, m)
			cancel() // stop after the first event
		})
	}()
	<-done
	<-gone
	mu.Lock()
	defer mu.Unlock()
	if !sawDisconnect || len(msgs) != 1 {
		t.Errorf("disconnect %v, msgs %v (nothing may follow a cancel)", sawDisconnect, kinds(msgs))
	}
}

// Hostile updates over a real stream: the ones the services refuse fail
// the run and leave the data as the snapshot made it; valid ones apply.
func TestHostileUpdatesThroughTheStream(t *testing.T) {
	const snapshot = `{"type":"STATE_SNAPSHOT","snapshot":{"services":[` +
		`{"id":"api","name":"API","series":"Core","volume":1200,"latency":60},` +
		`{"id":"checkout","name":"Checkout","series":"Core","volume":640,"latency":92},` +
		`{"id":"auth","name":"Auth","series":"Platform","volume":900,"latency":35}]}}`
	delta := func(ops string) string { return `{"type":"STATE_DELTA","delta":` + ops + `}` }
	many := strings.Repeat(`{"op":"replace","path":"/services/1/latency","value":1},`, 63) + `{"op":"replace","path":"/services/1/owner","value":1}`
	tests := []struct {
		name, frame string
		reason      string // "" when the update must apply
	}{
		{"add /SERVICES", delta(`[{"op":"add","path":"/SERVICES","value":[]}]`), `unknown key "SERVICES"`},
		{"add /services/0/ID", delta(`[{"op":"add","path":"/services/0/ID","value":"x"}]`), `unknown key "ID"`},
		{"a long s", delta(`[{"op":"add","path":"/services/0/ſeries","value":"Core"}]`), `unknown key "ſeries"`},
		{"latency and Latency", strings.Replace(snapshot, `"latency":60`, `"latency":60,"Latency":61`, 1), `unknown key "Latency"`},
		{"remove a latency", delta(`[{"op":"remove","path":"/services/0/latency"}]`), "services[0].latency: is required"},
		{"null volume in a snapshot", strings.Replace(snapshot, `"volume":640`, `"volume":null`, 1), "services[1].volume: must be a number, not null"},
		{"test /", delta(`[{"op":"test","path":"/","value":{}}]`), "the path does not exist"},
		{"copy from /services/0/", delta(`[{"op":"copy","from":"/services/0/","path":"/services/1/name"}]`), "from: the path does not exist"},
		{"64 operations, the last failing", delta("[" + many + "]"), "operation 64 of 64 (replace /services/1/owner)"},
		{"an unescaped ~", delta(`[{"op":"replace","path":"/services/1/lat~ency","value":1}]`), "is not a JSON Pointer"},
		{"test -0 against 0", delta(`[{"op":"replace","path":"/services/2/volume","value":0},{"op":"test","path":"/services/2/volume","value":-0}]`), ""},
		{"null, then a number", delta(`[{"op":"replace","path":"/services/1/latency","value":null},{"op":"replace","path":"/services/1/latency","value":5}]`), ""},
		{"an unknown op is dropped", delta(`[{"op":"merge","path":"/services"},{"op":"replace","path":"/services/1/latency","value":5}]`), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			endpoint := serve(t, sse(
				`data: {"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`+"\n\n",
				"data: "+snapshot+"\n\n",
				"data: "+tt.frame+"\n\n",
				`data: {"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1"}`+"\n\n",
			))
			m := loop(t, endpoint, "normal")
			f, failed := m.Lifecycle.(core.Failed)
			switch {
			case tt.reason == "" && failed:
				t.Fatalf("failed: %s", f.Reason)
			case tt.reason != "" && (!failed || !strings.Contains(f.Reason, tt.reason)):
				t.Fatalf("lifecycle %#v, want Failed with %q", m.Lifecycle, tt.reason)
			case tt.reason != "" && (m.Wire.Len() != 3 || latency(t, m, "checkout") != 92 || latency(t, m, "api") != 60):
				t.Errorf("the data changed: %+v", m.Wire.Services())
			case tt.reason == "" && m.Lifecycle != (core.Completed{RunID: "run-1"}):
				t.Errorf("lifecycle %#v", m.Lifecycle)
			}
		})
	}
}

// A 204 or 304 (say, from a proxy) has no body at all: in the browser,
// res.body is null. The run fails; the app does not.
func TestAnswersWithoutABodyFailTheRun(t *testing.T) {
	for _, status := range []int{http.StatusNoContent, http.StatusNotModified} {
		msgs := collect(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) })
		want := fmt.Sprintf("failed (the connection): HTTP %d %s", status, http.StatusText(status))
		if got := kinds(msgs); len(got) != 1 || got[0] != want {
			t.Errorf("%d: %v, want %q", status, got, want)
		}
	}
}

// requestOf runs one stream of run against a server that records the
// request's body and answers nothing more.
func requestOf(t *testing.T, run core.Run) string {
	t.Helper()
	var body []byte
	effects.Client{Endpoint: serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
	}))}.Stream(context.Background(), run, func(core.Msg) {})
	return string(body)
}

// answered is the approval scenario, interrupted, then answered.
func answered(t *testing.T, choice core.Choice) core.Model {
	t.Helper()
	models := fixturetest.MustPlay(t, "approval")
	m := models[len(models)-1]
	_, q := m.Lifecycle.(core.Interrupted).Question()
	m, _ = core.Update(m, core.ClickedAnswer{Interrupt: q.ID, Choice: choice, At: fixturetest.Clock})
	return m
}

// The resumed run's request: the same thread, a new run id, the state on
// the screen, the interrupted run's conversation (the proposed tool call),
// and a resume entry for the interrupt: a denial is a payload, a cancel
// has none.
func TestTheResumedRequest(t *testing.T) {
	state := `{"services":[{"id":"api","name":"API","series":"Core","volume":1200,"latency":145},` +
		`{"id":"checkout","name":"Checkout","series":"Core","volume":640,"latency":92},{"id":"auth","name":"Auth","series":"Platform","volume":900,"latency":35}]}`
	messages := `[{"id":"msg-proposal","role":"assistant","toolCalls":[{"id":"call-rollback","type":"function","function":{"name":"rollback_deploy","arguments":"{\"service\":\"api\",\"to\":\"previous\"}"}}]}]`
	for choice, resume := range map[core.Choice]string{
		core.Approve:       `[{"interruptId":"rollback-api@thread-1","status":"resolved","payload":{"approved":true}}]`,
		core.Reject:        `[{"interruptId":"rollback-api@thread-1","status":"resolved","payload":{"approved":false}}]`,
		core.CancelRequest: `[{"interruptId":"rollback-api@thread-1","status":"cancelled"}]`,
	} {
		want := `{"threadId":"thread-1","runId":"run-2","state":` + state + `,"messages":` + messages +
			`,"tools":[],"context":[],"forwardedProps":{"scenario":"approval"},"resume":` + resume + `,"protocolVersion":"1.1"}`
		if got := requestOf(t, answered(t, choice).Run); got != want {
			t.Errorf("%s: request\n%s\nwant\n%s", choice, got, want)
		}
	}
}

// The resumed run's engine knows what it continues: a run that leaves the
// interrupted tool call unanswered is warned about.
func TestTheResumedRunIsJudgedAsAContinuation(t *testing.T) {
	m := answered(t, core.Approve)
	var msgs []core.Msg
	effects.Client{Endpoint: serve(t, sse(
		"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"thread-1\",\"runId\":\"run-2\"}\n\n",
		"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"run-2\"}\n\n",
	))}.Stream(context.Background(), m.Run, func(msg core.Msg) { msgs = append(msgs, msg) })
	if len(msgs) != 3 {
		t.Fatalf("%s", kinds(msgs))
	}
	if w := msgs[1].(core.Received).Judgement.Warnings; len(w) != 1 || w[0].Rule != agui.ResumeUnanswered {
		t.Errorf("warnings %+v", w)
	}
}

// An interrupted run's last event carries the conversation, and the wall
// clock it was judged at, for the resume.
func TestAnInterruptCarriesTheConversation(t *testing.T) {
	s, _ := fixtures.Lookup("approval")
	var frames []string
	for _, st := range s.ForRequest("t", "r") {
		frames = append(frames, "data: "+string(st.Event)+"\n\n")
	}
	msgs := collectRun(t, core.Run{Generation: 1, ThreadID: "t", RunID: "r", Scenario: "approval"}, sse(frames...))
	last := msgs[len(msgs)-2].(core.Received)
	if last.Judgement.Type != agui.RunFinished || !strings.Contains(string(last.Conversation), `"call-rollback"`) || last.Now.IsZero() {
		t.Errorf("the interrupt: %s %s %v", last.Judgement.Type, last.Conversation, last.Now)
	}
	for _, m := range msgs[:len(msgs)-2] {
		if m.(core.Received).Conversation != nil {
			t.Errorf("%s carries the conversation", m.(core.Received).Judgement.Type)
		}
	}
}

func collectRun(t *testing.T, run core.Run, handler http.HandlerFunc) []core.Msg {
	t.Helper()
	var msgs []core.Msg
	effects.Client{Endpoint: serve(t, handler)}.Stream(context.Background(), run, func(m core.Msg) { msgs = append(msgs, m) })
	return msgs
}
