package agui_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/sse"
)

// A run read from its Server-Sent Events: each event judged as it comes,
// the events delivered, the warnings, and the state at the end.
func Example() {
	in, _, err := agui.ReadInput([]byte(`{"threadId":"t1","runId":"r1","messages":[],"state":{"count":1}}`))
	if err != nil {
		log.Fatal(err)
	}
	c, err := agui.NewConsumer(in, agui.Options{})
	if err != nil {
		log.Fatal(err)
	}
	body := strings.NewReader(`data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}

data: {"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"Counting."}

: keep-alive

data: {"type":"STATE_DELTA","delta":[{"op":"replace","path":"/count","value":2}]}

data: {"type":"STATE_DELTA","delta":[{"op":"remove","path":"/total"}]}

data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}

`)
	stream := sse.NewReader(body, agui.MaxEventBytes)
	for {
		data, err := stream.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			log.Fatal(err)
		}
		j := c.Feed(data)
		if j.Violation != nil {
			fmt.Println("rejected:", j.Violation.Rule, j.Violation.Reason)
			return
		}
		for _, e := range j.Events {
			fmt.Println(e.Type)
		}
		for _, w := range j.Warnings {
			fmt.Printf("  warning (%s): %s\n", w.Rule, w.Text)
		}
	}
	if why := c.End(); why != "" {
		fmt.Println("truncated:", why)
		return
	}
	fmt.Println("outcome:", c.Runs()[0].Outcome.Kind)
	fmt.Println("state:", string(c.State().AppendJSON(nil)))
	// Output:
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_END
	// STATE_DELTA
	// STATE_DELTA
	//   warning (patch-not-applied): Failed to apply state patch: operation 1 (remove /total): the path does not exist; the state stays as it was
	// RUN_FINISHED
	// outcome: success
	// state: {"count":2}
}

// An input read as a client about to send it must: unknown members are
// removed with a warning, a known member of the wrong kind is an error.
func ExampleReadInput() {
	in, warnings, err := agui.ReadInput([]byte(`{"threadId":"t1","runId":"r1","messages":[{"id":"u1","role":"user","content":"Hi"}],"colour":"blue"}`))
	fmt.Println(in.ThreadID, in.RunID, err)
	for _, w := range warnings {
		fmt.Println(w.Rule, w.Text)
	}

	_, _, err = agui.ReadInput([]byte(`{"threadId":"t1","runId":7,"messages":[]}`))
	var bad *agui.InputError
	if errors.As(err, &bad) {
		fmt.Println(bad.Field, bad.Reason)
	}
	// Output:
	// t1 r1 <nil>
	// unknown-member removed /colour from the run input: RunAgentInput has no member "colour" in AG-UI
	// runId must be a string, not a number
}

// A run that stops to ask, answered: the question the interrupted run
// left, a yes as its answer, and the input of the run that continues it.
func ExamplePending_Resume() {
	in, _, err := agui.ReadInput([]byte(`{"threadId":"t1","runId":"r1","messages":[]}`))
	if err != nil {
		log.Fatal(err)
	}
	c, err := agui.NewConsumer(in, agui.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, event := range []string{
		`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"rollback"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":{"type":"interrupt","interrupts":[` +
			`{"id":"i1","reason":"confirmation","message":"Roll back the deploy?","toolCallId":"c1",` +
			`"responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"}}}}]}}`,
	} {
		c.Feed([]byte(event))
	}
	pending, ok := c.Pending()
	if !ok {
		log.Fatal("the run was not interrupted")
	}
	question := pending.Interrupts[0]
	field, yesNo := question.Approval()
	fmt.Printf("%s (%s, yes or no: %v)\n", question.Message, field, yesNo)

	// Every interrupt must be answered: an empty list is refused before
	// anything is sent.
	if _, err := pending.Resume(in, "r2", nil, time.Now()); err != nil {
		fmt.Println("refused:", err)
	}

	answers := []agui.Answer{agui.Approve(question, field, true)}
	next, err := pending.Resume(in, "r2", answers, time.Now())
	if err != nil {
		log.Fatal(err)
	}
	body, _, err := next.Request("")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(body))
	// Output:
	// Roll back the deploy? (approved, yes or no: true)
	// refused: resume: interrupt "i1" of run "r1" has no entry: every interrupt must be answered or cancelled
	// {"threadId":"t1","runId":"r2","messages":[],"resume":[{"interruptId":"i1","status":"resolved","payload":{"approved":true}}],"protocolVersion":"1.1"}
}

// A rule: its id, whether breaking it is fatal, its spec page and its
// meaning.
func ExampleRule() {
	r := agui.PatchFailed
	fmt.Println(r, r.Fatal(), r.URL())
	fmt.Println(r.Summary())
	// Output:
	// patch-not-applied false https://docs.ag-ui.com/spec/1.0/basic/patterns/snapshots
	// a state or activity update that cannot apply is skipped, and the value kept
}
