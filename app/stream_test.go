package app_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"

	"github.com/agent-analysis/agent-analysis/app"
	"github.com/agent-analysis/agent-analysis/server"
)

// loop runs Update with real Effects until the run settles, like the UI
// shell does, and returns the final Model.
func loop(t *testing.T, endpoint string, first app.Msg) app.Model {
	t.Helper()
	msgs := make(chan app.Msg, 64)
	effects := app.NewEffects(app.Stream{Endpoint: endpoint}, func(m app.Msg) { msgs <- m })
	defer effects.Wait()
	defer effects.Close()

	m, cmd := app.Update(app.NewModel("thread-1"), first)
	effects.Run(cmd)
	for {
		if _, active := app.ActiveRun(m.Lifecycle); !active {
			if effects.Open() != 0 {
				t.Errorf("%d connections left open after the run ended", effects.Open())
			}
			return m
		}
		select {
		case msg := <-msgs:
			m, cmd = app.Update(m, msg)
			effects.Run(cmd)
		case <-time.After(10 * time.Second):
			t.Fatalf("run stuck in %#v", m.Lifecycle)
		}
	}
}

func latency(t *testing.T, m app.Model, id string) float64 {
	t.Helper()
	s, ok := m.Wire.Find(id)
	if !ok {
		t.Fatalf("no %s", id)
	}
	return s.Latency
}

func TestScenariosEndAsSpecifiedAgainstTheRealServer(t *testing.T) {
	endpoint := serve(t, server.New(server.Config{NoDelay: true})) + "/api/agent-analysis"

	m := loop(t, endpoint, app.ClickedRun{Scenario: "normal"})
	if m.Lifecycle != (app.Completed{RunID: "run-1"}) || m.Accepted != 4 || len(m.Wire.Services) != 4 || latency(t, m, "api") != 145 {
		t.Errorf("normal: %#v accepted %d wire %+v", m.Lifecycle, m.Accepted, m.Wire)
	}

	m = loop(t, endpoint, app.ClickedRun{Scenario: "invalid"})
	if f, ok := m.Lifecycle.(app.Failed); !ok || f.Kind != app.Protocol || m.Accepted != 2 || latency(t, m, "checkout") != 92 {
		t.Errorf("invalid: %#v accepted %d", m.Lifecycle, m.Accepted)
	}

	m = loop(t, endpoint, app.ClickedRun{Scenario: "slow"})
	if m.Lifecycle != (app.Completed{RunID: "run-1"}) || m.Accepted != 3 || len(m.Wire.Services) != 4 {
		t.Errorf("slow: %#v accepted %d", m.Lifecycle, m.Accepted)
	}
}

// collect runs one stream against handler and returns what it sent.
func collect(t *testing.T, handler http.HandlerFunc) []app.Msg {
	t.Helper()
	var msgs []app.Msg
	app.Stream{Endpoint: serve(t, handler)}.Run(context.Background(), app.Run{Conn: 3, ThreadID: "t", RunID: "r", Scenario: "normal"},
		func(m app.Msg) { msgs = append(msgs, m) })
	return msgs
}

// sse writes chunks as separate flushed writes.
func sse(chunks ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range chunks {
			w.Write([]byte(c))
			w.(http.Flusher).Flush()
			time.Sleep(time.Millisecond) // let each chunk be its own read
		}
	}
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
	want := []string{"RUN_STARTED", "STATE_SNAPSHOT", "RUN_FINISHED", "closed"}
	if got := kinds(msgs); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v, want %v", got, want)
	}
	snap := msgs[1].(app.ReceivedEvent).Event.(*events.StateSnapshotEvent)
	name := snap.Snapshot.(map[string]any)["services"].([]any)[0].(map[string]any)["name"]
	if name != "Zürich ☕" {
		t.Errorf("name %q", name)
	}
	for _, m := range msgs {
		if ev, ok := m.(app.ReceivedEvent); ok && ev.Conn != 3 {
			t.Errorf("event tagged %d, want conn 3", ev.Conn)
		}
	}
}

func kinds(msgs []app.Msg) []string {
	var out []string
	for _, m := range msgs {
		switch m := m.(type) {
		case app.ReceivedEvent:
			out = append(out, string(m.Event.Type()))
		case app.StreamClosed:
			out = append(out, "closed")
		case app.StreamFailed:
			out = append(out, "failed: "+m.Err.Error())
		}
	}
	return out
}

func TestRefusedRequestsCarryTheProblemTitle(t *testing.T) {
	for _, status := range []int{413, 500} {
		msgs := collect(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"type":"about:blank","title":"Title %d","status":%d,"detail":"because"}`, status, status)
		})
		var te *app.TransportError
		if len(msgs) != 1 || !errors.As(msgs[0].(app.StreamFailed).Err, &te) {
			t.Fatalf("%d: %v", status, kinds(msgs))
		}
		if te.Status != status || te.Title != fmt.Sprintf("Title %d", status) || te.Detail != "because" {
			t.Errorf("%+v", te)
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

func TestPrematureCloseAndMalformedEvents(t *testing.T) {
	started := `data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n\n"
	msgs := collect(t, sse(started, `data: {"type":"STATE_SNAP`))
	if got := kinds(msgs); strings.Join(got, "|") != "RUN_STARTED|closed" {
		t.Errorf("premature close: %v", got)
	}

	msgs = collect(t, sse(started, "data: {not json}\n\n", started))
	var pe *app.ProtocolError
	if len(msgs) != 2 || !errors.As(msgs[1].(app.StreamFailed).Err, &pe) {
		t.Fatalf("malformed: %v", kinds(msgs))
	}

	msgs = collect(t, sse(`data: {"type":"RUN_STARTED","threadId":"t"}`+"\n\n"))
	if got := kinds(msgs); len(got) != 1 || !strings.Contains(got[0], "runId field is required") {
		t.Errorf("invalid supported event: %v", got)
	}

	msgs = collect(t, sse(`data: {"type":"NOT_AG_UI"}`+"\n\n"))
	if got := kinds(msgs); len(got) != 1 || !strings.Contains(got[0], "unknown event type") {
		t.Errorf("unknown type: %v", got)
	}
}

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
	want := `POST application/json text/event-stream {"threadId":"t","runId":"r","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`
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
		select {
		case <-r.Context().Done():
			mu.Lock()
			sawDisconnect = true
			mu.Unlock()
			close(gone)
		case <-time.After(10 * time.Second):
		}
	}))

	ctx, cancel := context.WithCancel(context.Background())
	var msgs []app.Msg
	done := make(chan struct{})
	go func() {
		defer close(done)
		app.Stream{Endpoint: endpoint}.Run(ctx, app.Run{Conn: 1, ThreadID: "t", RunID: "r"}, func(m app.Msg) {
			msgs = append(msgs, m)
			cancel() // stop after the first event
		})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server never saw the client go")
	}
	mu.Lock()
	defer mu.Unlock()
	if !sawDisconnect || len(msgs) != 1 {
		t.Errorf("disconnect %v, msgs %v (nothing may follow a cancel)", sawDisconnect, kinds(msgs))
	}
}
