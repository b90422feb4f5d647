package proxy_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/proxy"
)

// Stand between a client and an agent: the client gets the agent's bytes
// unchanged, and each run is reported once judged. This agent sends an
// event after its run finished.
func ExampleNew() {
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"+
			"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"+
			"data: {\"type\":\"STATE_DELTA\",\"delta\":[]}\n\n")
	}))
	defer agent.Close()

	runs := make(chan proxy.Run, 1)
	p, err := proxy.New(proxy.Config{Upstream: agent.URL, Report: func(r proxy.Run) { runs <- r }})
	if err != nil {
		fmt.Println(err)
		return
	}
	front := httptest.NewServer(p)
	defer func() { front.Close(); p.Close() }()

	resp, err := http.Post(front.URL, "application/json", strings.NewReader(`{"threadId":"t1","runId":"r1","messages":[]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	run := <-runs
	fmt.Println("the client got", len(body), "bytes,", strings.Count(string(body), "data: "), "events")
	fmt.Println(run.Name()+":", run.Failures[0].Line())
	// Output:
	// the client got 160 bytes, 3 events
	// thread t1 run r1: after-finish at event 3: STATE_DELTA after run "r1" finished: only RUN_STARTED or RUN_ERROR may follow RUN_FINISHED (https://docs.ag-ui.com/spec/1.0/events/lifecycle)
}
