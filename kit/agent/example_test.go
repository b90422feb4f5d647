package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agent-analysis/agent-analysis/kit/agent"
)

// Run a live agent and read the verdict: the input is completed with
// every member AG-UI's RunAgentInput requires, the stream judged as it
// arrives, the transport checked. This agent finishes its run twice.
func ExampleRun() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ThreadID, RunID string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "text/event-stream")
		finished := fmt.Sprintf(`{"type":"RUN_FINISHED","threadId":%q,"runId":%q}`, in.ThreadID, in.RunID)
		fmt.Fprintf(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":%q,\"runId\":%q}\n\ndata: %s\n\ndata: %s\n\n", in.ThreadID, in.RunID, finished, finished)
	}))
	defer srv.Close()

	in, _, err := agent.NewInput([]byte(`{"messages":[{"id":"m1","role":"user","content":"hi"}]}`), agent.Inputs{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ex := agent.Run(context.Background(), agent.Request{URL: srv.URL, Input: in})
	fmt.Println(ex.Transport.Status, ex.Transport.Events, "events")
	fmt.Println(ex.Violation.Rule, "at event", ex.Violation.Index+1)
	// Output:
	// 200 3 events
	// after-finish at event 3
}

// Stop a run as a user pressing Stop does, after its first event, and ask
// for the run that follows on the same thread.
func ExampleAfterStop() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ThreadID, RunID string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":%q,\"runId\":%q}\n\n", in.ThreadID, in.RunID)
		fmt.Fprintf(w, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":%q,\"runId\":%q}\n\n", in.ThreadID, in.RunID)
	}))
	defer srv.Close()

	in, _, _ := agent.NewInput(nil, agent.Inputs{ThreadID: "thread-1"})
	r := agent.Request{URL: srv.URL, Input: in, Stop: &agent.Stop{Events: 1}}
	stopped := agent.Run(context.Background(), r)
	fmt.Println("stopped after", stopped.Stopped.Events, "event:", stopped.Stopped.Types, "truncation held against it:", stopped.Truncated != "")
	next := agent.AfterStop(context.Background(), r)
	fmt.Println("the next run:", next.Transport.Events, "events, violation:", next.Violation != nil, "truncated:", next.Truncated != "")
	// Output:
	// stopped after 1 event: [RUN_STARTED] truncation held against it: false
	// the next run: 2 events, violation: false truncated: false
}
