package core_test

// Interrupt and resume (rule 5, basic/patterns/interrupt-resume): the
// person answers the agent's question, and one new run on the same thread
// resumes the interrupted one.

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/fixtures/fixturetest"
)

// interrupted plays the approval scenario to its interrupt, with Core
// filtered and API selected, the stream closed.
func interrupted(t *testing.T) *program {
	t.Helper()
	evs := script(t, "approval", 1)
	p := start(t).run("approval").events(1, evs[:3]...)
	p.send(core.ClickedFilter{Filter: core.OnlyCore}, core.ClickedService{ID: "api"})
	return p.events(1, evs[3:]...).closed(1)
}

// resumed plays a continuation of the approval scenario on run g.
func (p *program) resumed(g core.Generation, continuation string) *program {
	p.t.Helper()
	run := p.runOf(g)
	events, err := fixturetest.Continuation("approval", continuation, run.ThreadID, run.RunID)
	if err != nil {
		p.t.Fatal(err)
	}
	for _, e := range events {
		p.events(g, string(e))
	}
	return p.closed(g)
}

func (p *program) answer(choice core.Choice) *program {
	p.t.Helper()
	l, ok := p.m.Lifecycle.(core.Interrupted)
	if !ok {
		p.t.Fatalf("%#v, not Interrupted", p.m.Lifecycle)
	}
	_, q := l.Question()
	return p.send(core.ClickedAnswer{Interrupt: q.ID, Choice: choice, At: p.now})
}

// The interrupted run keeps what its resume needs: the pending interrupts,
// each one's expiry as judged when it came, and the conversation.
func TestAnInterruptedRunKeepsWhatItsResumeNeeds(t *testing.T) {
	p := interrupted(t)
	l, ok := p.m.Lifecycle.(core.Interrupted)
	if !ok {
		t.Fatalf("%#v", p.m.Lifecycle)
	}
	if l.RunID != "run-1" || l.Pending.ThreadID != thread || l.Pending.RunID != "run-1" || len(l.Pending.Interrupts) != 1 || !reflect.DeepEqual(l.Expired, []bool{false}) {
		t.Errorf("interrupted %+v", l)
	}
	i, q := l.Question()
	if field, ok := l.Approval(); i != 0 || q.ID != "rollback-api@thread-1" || !ok || field != "approved" || l.QuestionExpired() {
		t.Errorf("question %d %+v, approval %q %v", i, q, field, ok)
	}
	var conversation []map[string]any
	if err := json.Unmarshal(l.Messages, &conversation); err != nil || len(conversation) != 1 || !strings.Contains(string(l.Messages), `"call-rollback"`) {
		t.Errorf("conversation %s (%v)", l.Messages, err)
	}
	if !p.m.Asking || p.m.Accepted != 3 || p.latency("api") != 145 {
		t.Errorf("asking %v accepted %d", p.m.Asking, p.m.Accepted)
	}
}

// Rule 5: each answer starts one resumed run on the same thread with a new
// run id, answering every interrupt; data, filter, selection and the
// baseline carry over, and the answer's continuation plays on them.
func TestAnAnswerResumesTheRun(t *testing.T) {
	for _, tt := range []struct {
		choice       core.Choice
		continuation string
		status       agui.ResumeStatus
		payload      string
		api          float64
		accepted     int
	}{
		{core.Approve, "approved", agui.Resolved, `{"approved":true}`, 60, 1},
		{core.Reject, "rejected", agui.Resolved, `{"approved":false}`, 145, 0},
		{core.CancelRequest, "cancelled", agui.Abandoned, "", 145, 0},
	} {
		t.Run(tt.continuation, func(t *testing.T) {
			p := interrupted(t)
			before := p.m
			l := before.Lifecycle.(core.Interrupted)
			p.answer(tt.choice)
			cmd, ok := p.lastCmd().(core.Sequence)
			if !ok || len(cmd) != 1 {
				t.Fatalf("cmd %#v, want one StartStream", p.lastCmd())
			}
			run := cmd[0].(core.StartStream).Run
			want := core.Run{Generation: 2, ThreadID: thread, RunID: "run-2", Scenario: "approval", Resume: run.Resume}
			if run != want || run.Resume == nil {
				t.Fatalf("run %+v", run)
			}
			r := run.Resume
			if !reflect.DeepEqual(r.Pending, l.Pending) || !r.At.Equal(p.now) || !reflect.DeepEqual(r.State.Services(), before.Wire.Services()) || string(r.Messages) != string(l.Messages) {
				t.Errorf("resume %+v", r)
			}
			if len(r.Answers) != 1 || r.Answers[0].InterruptID != "rollback-api@thread-1" || r.Answers[0].Status != tt.status || string(r.Answers[0].Payload) != tt.payload {
				t.Errorf("answers %+v", r.Answers)
			}
			if p.m.Lifecycle != (core.Connecting{Run: run}) || p.m.Wire != before.Wire || p.m.Filter != core.OnlyCore || p.m.Selected != "api" ||
				!reflect.DeepEqual(p.m.Baseline, before.Baseline) || p.m.Accepted != 0 || len(p.m.Arrivals) != 0 {
				t.Errorf("after the answer: %#v, filter %s, selected %q, accepted %d", p.m.Lifecycle, p.m.Filter, p.m.Selected, p.m.Accepted)
			}
			// The resumed run starts streaming at once: its state is the one shown.
			p.resumed(2, tt.continuation)
			if p.m.Lifecycle != (core.Completed{RunID: "run-2"}) || p.m.Accepted != tt.accepted || p.latency("api") != tt.api || p.m.Warned != 0 {
				t.Errorf("resumed: %#v accepted %d api %v warned %d", p.m.Lifecycle, p.m.Accepted, p.latency("api"), p.m.Warned)
			}
			if b, _ := p.m.BaselineOf("api"); b.Latency != 60 || p.m.Filter != core.OnlyCore || p.m.Selected != "api" || p.m.Asking {
				t.Errorf("baseline api %v, filter %s, selected %q, asking %v", b.Latency, p.m.Filter, p.m.Selected, p.m.Asking)
			}
			if a := p.m.Arrivals[0]; a.Type != "RUN_STARTED" || p.m.Arrivals[1].Verdict != core.Checked {
				t.Errorf("the resumed run's arrivals: %+v", p.m.Arrivals[:2])
			}
		})
	}
}

// The resumed run's request is the engine's Pending.Resume of the page's
// input: same thread, new run id, the resume list, the state now and the
// conversation.
func TestTheResumedRunsInput(t *testing.T) {
	p := interrupted(t).answer(core.Approve)
	in, err := p.m.Run.Input()
	if err != nil {
		t.Fatal(err)
	}
	if in.ThreadID != thread || in.RunID != "run-2" || len(in.Answers()) != 1 || string(in.Answers()[0].Payload) != `{"approved":true}` {
		t.Errorf("input %+v answers %+v", in, in.Answers())
	}
	if got := string(in.State()); !strings.Contains(got, `"latency":145`) {
		t.Errorf("state %s", got)
	}
}

// The resume carries the thread's state as the engine holds it, a
// replayed run's carried over, though the interrupted run applied none of
// its own: the resumed run's delta applies to it.
func TestAResumeCarriesAReplayedRunsState(t *testing.T) {
	p := start(t).run("x")
	p.events(1,
		`{"type":"RUN_STARTED","threadId":"thread-1","runId":"old"}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"services":[{"id":"api","name":"API","series":"Core","volume":1200,"latency":60}]}}`,
		`{"type":"RUN_FINISHED","threadId":"thread-1","runId":"old"}`,
		`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`,
		`{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1","outcome":{"type":"interrupt","interrupts":[{"id":"q1","reason":"confirm","message":"ok?"}]}}`,
	).closed(1)
	p.send(core.ClickedAnswer{Interrupt: "q1", Choice: core.CancelRequest, At: p.now})
	if p.m.Run.Resume == nil || p.m.Run.Resume.State.Len() != 1 {
		t.Fatalf("the resume: %+v", p.m.Run.Resume)
	}
	p.events(2,
		`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-2"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/latency","value":61}]}`,
	)
	if _, ok := p.m.Lifecycle.(core.Streaming); !ok || p.m.Wire == nil || p.m.Wire.Len() != 1 {
		t.Errorf("the resumed run: %v, wire %v", p.m.Lifecycle, p.m.Wire)
	}
}

// A resumed run that leaves the interrupted tool call unanswered finishes,
// with the engine's warning counted on the run.
func TestAResumeThatLeavesTheCallUnansweredWarns(t *testing.T) {
	p := interrupted(t).answer(core.Approve)
	p.events(2, `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-2"}`, `{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-2"}`).closed(2)
	if p.m.Lifecycle != (core.Completed{RunID: "run-2"}) || p.m.Warned != 1 {
		t.Fatalf("%#v warned %d", p.m.Lifecycle, p.m.Warned)
	}
	if w := p.m.Arrivals[1].Warnings; len(w) != 1 || !strings.Contains(w[0], "call-rollback") {
		t.Errorf("warnings %q", w)
	}
	// The next run counts its own.
	p.run("normal")
	if p.m.Warned != 0 {
		t.Errorf("warned %d after a new Run", p.m.Warned)
	}
}

// Answering is allowed only in Interrupted, for the question shown: in any
// other state, or for another interrupt, it changes nothing.
func TestAnswersOnlyInInterrupted(t *testing.T) {
	for _, c := range []core.Choice{core.Approve, core.Reject, core.CancelRequest} {
		msg := core.ClickedAnswer{Interrupt: "rollback-api", Choice: c, At: fixturetest.Clock}
		noOpIn(t, msg, append(closed[:4], closed[4], core.Streaming{Run: run(1, "approval")}, core.Connecting{Run: run(1, "approval")})...)
	}
	p := interrupted(t)
	frozen := p.m
	n := len(p.cmds)
	p.send(core.ClickedAnswer{Interrupt: "another", Choice: core.Approve, At: p.now},
		core.ClickedAnswer{Interrupt: "rollback-api", Choice: 0, At: p.now})
	if !reflect.DeepEqual(p.m, frozen) || p.cmds[n] != nil || p.cmds[n+1] != nil {
		t.Error("an answer to no open question did something")
	}
	// Once answered, a second click is stale.
	p.answer(core.Reject)
	frozen, n = p.m, len(p.cmds)
	p.send(core.ClickedAnswer{Interrupt: "rollback-api", Choice: core.Approve, At: p.now})
	if !reflect.DeepEqual(p.m, frozen) || p.cmds[n] != nil {
		t.Error("a second answer did something")
	}
}

// The interrupted run's stream, still open when the person answers, is
// closed: whatever of it still arrives is a stale connection's, a no-op.
func TestAnAnswerClosesTheInterruptedStream(t *testing.T) {
	evs := script(t, "approval", 1)
	p := start(t).run("approval").events(1, evs...)
	p.answer(core.CancelRequest)
	if cmd := p.lastCmd().(core.Sequence); len(cmd) != 2 || cmd[0] != (core.AbortStream{Generation: 1}) {
		t.Fatalf("cmd %#v", cmd)
	}
	before := p.m
	p.send(core.Received{Generation: 1, JSON: []byte(`{"type":"RUN_ERROR","message":"late"}`), Judgement: agui.Judgement{Type: "RUN_ERROR"}}, core.StreamClosed{Generation: 1})
	if !reflect.DeepEqual(p.m, before) {
		t.Errorf("a stale event changed the resumed run: %#v %+v", p.m.Lifecycle, p.m.Arrivals)
	}
}

// The expired-interrupt rule: an interrupt expired when it came can only
// be cancelled; one that expires while shown is marked so when the person
// tries to approve it, and then can only be cancelled.
func TestAnExpiredQuestionCanOnlyBeCancelled(t *testing.T) {
	finished := func(expires string) string {
		return `{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1","outcome":{"type":"interrupt","interrupts":[` +
			`{"id":"q","reason":"confirmation","expiresAt":"` + expires + `","responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"}}}}]}}`
	}
	evs := script(t, "normal", 1)[:3]
	p := start(t).run("normal").events(1, append(evs, finished("2026-01-01T00:00:00Z"))...)
	l := p.m.Lifecycle.(core.Interrupted)
	if !reflect.DeepEqual(l.Expired, []bool{true}) || !l.QuestionExpired() {
		t.Fatalf("expired %v", l.Expired)
	}
	if _, ok := l.Approval(); ok {
		t.Error("an expired question offers Approve")
	}
	frozen := p.m
	p.answer(core.Approve).answer(core.Reject)
	if !reflect.DeepEqual(p.m, frozen) {
		t.Fatal("an expired question was approved or rejected")
	}
	p.answer(core.CancelRequest)
	if r := p.m.Run.Resume; r == nil || r.Answers[0].Status != agui.Abandoned || r.Answers[0].Payload != nil {
		t.Fatalf("cancel: %+v", p.m.Run.Resume)
	}
	if _, err := p.m.Run.Input(); err != nil {
		t.Errorf("the engine refuses the cancellation: %v", err)
	}

	// Valid when it came, expired when answered.
	p = start(t).run("normal").events(1, append(evs, finished(p.now.Add(time.Minute).Format(time.RFC3339)))...)
	if p.m.Lifecycle.(core.Interrupted).QuestionExpired() {
		t.Fatal("expired on arrival")
	}
	p.now = p.now.Add(time.Hour)
	p.answer(core.Approve)
	if l := p.m.Lifecycle.(core.Interrupted); p.lastCmd() != nil || !l.QuestionExpired() || p.m.Activity[len(p.m.Activity)-1].Level != core.Warning {
		t.Fatalf("approved after it expired: %#v %#v", p.m.Lifecycle, p.lastCmd())
	}
	p.answer(core.CancelRequest)
	if _, connecting := p.m.Lifecycle.(core.Connecting); !connecting {
		t.Errorf("%#v", p.m.Lifecycle)
	}
	// The question stays the question once it has expired, after another
	// interrupt too: the screen says it expired, and asks nothing else.
	soon := fixturetest.Clock.Add(time.Minute).Format(time.RFC3339)
	p = start(t).run("normal").events(1, append(evs, `{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1","outcome":{"type":"interrupt","interrupts":[`+
		`{"id":"note","reason":"input"},{"id":"q","reason":"confirmation","expiresAt":"`+soon+`","responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"}}}}]}}`)...)
	p.now = p.now.Add(time.Hour)
	p.answer(core.Approve)
	l = p.m.Lifecycle.(core.Interrupted)
	if i, q := l.Question(); i != 1 || q.ID != "q" || !l.QuestionExpired() || p.lastCmd() != nil {
		t.Errorf("after it expired the question is %d %q (expired %v)", i, q.ID, l.QuestionExpired())
	}
}

// Several interrupts: the question is the first approval that has not
// expired; answering it cancels the others, so that every one is covered.
func TestAnAnswerCoversEveryInterrupt(t *testing.T) {
	schema := `"responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"}}}`
	finished := `{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1","outcome":{"type":"interrupt","interrupts":[` +
		`{"id":"note","reason":"input"},` +
		`{"id":"old","reason":"confirmation","expiresAt":"2020-01-01T00:00:00Z",` + schema + `},` +
		`{"id":"go","reason":"confirmation","message":"Go?",` + schema + `}]}}`
	p := start(t).run("normal").events(1, append(script(t, "normal", 1)[:2], finished)...)
	l := p.m.Lifecycle.(core.Interrupted)
	if i, q := l.Question(); i != 2 || q.ID != "go" {
		t.Fatalf("question %d %s", i, q.ID)
	}
	p.answer(core.Reject)
	var got []string
	for _, a := range p.m.Run.Resume.Answers {
		got = append(got, a.InterruptID+":"+string(a.Status)+":"+string(a.Payload))
	}
	if strings.Join(got, " ") != `note:cancelled: old:cancelled: go:resolved:{"approved":false}` {
		t.Errorf("answers %s", got)
	}
	if _, err := p.m.Run.Input(); err != nil {
		t.Errorf("the engine refuses the list: %v", err)
	}
	// With no approval at all, the question is the first interrupt, and
	// only Cancel request answers it.
	p = start(t).run("normal").events(1, script(t, "normal", 1)[0],
		`{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1","outcome":{"type":"interrupt","interrupts":[{"id":"a","reason":"input"},{"id":"b","reason":"input"}]}}`)
	frozen := p.m
	if p.answer(core.Approve); !reflect.DeepEqual(p.m, frozen) {
		t.Error("approved a question without a boolean schema")
	}
	p.answer(core.CancelRequest)
	if r := p.m.Run.Resume; len(r.Answers) != 2 || r.Answers[1].Status != agui.Abandoned || r.State.Len() != 0 {
		t.Errorf("resume %+v", r)
	}
	// A question with no state of its own resumes from the empty state and
	// awaits one.
	p.events(2, `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-2"}`)
	if _, awaiting := p.m.Lifecycle.(core.AwaitingSnapshot); !awaiting {
		t.Errorf("%#v", p.m.Lifecycle)
	}
}

// Rule 1 while a question is open: Run does not continue the thread
// without answering; it leaves the question and starts a fresh run on the
// page's next thread, and later runs stay there.
func TestRunWhileAskedStartsANewThread(t *testing.T) {
	p := interrupted(t)
	p.run("normal")
	want := core.Run{Generation: 2, ThreadID: "thread-1-2", RunID: "run-2", Scenario: "normal"}
	if !reflect.DeepEqual(p.lastCmd(), core.Sequence{core.StartStream{Run: want}}) || p.m.Lifecycle != (core.Connecting{Run: want}) {
		t.Fatalf("cmd %#v", p.lastCmd())
	}
	if p.m.Asking || p.m.Baseline != nil || p.m.Filter != core.OnlyCore || p.m.Selected != "api" || p.m.ThreadID() != "thread-1-2" {
		t.Errorf("asking %v baseline %v", p.m.Asking, p.m.Baseline)
	}
	if e := p.m.Activity[len(p.m.Activity)-2]; !strings.Contains(e.Text, "thread-1 unanswered") {
		t.Errorf("activity %+v", e)
	}
	p.events(2, strings.ReplaceAll(strings.Join(script(t, "normal", 2), "\n"), `"thread-1"`, `"thread-1-2"`)).closed(2)
	p.run("normal")
	if p.m.Run.ThreadID != "thread-1-2" {
		t.Errorf("a run after the new thread's completion went on %s", p.m.Run.ThreadID)
	}
}

// A resumed run that fails before the agent took the answer (here the
// server refuses it) leaves the question open: Recover starts a new thread
// too. One that started has answered it: Recover stays.
func TestRecoverAfterAResumedRun(t *testing.T) {
	p := interrupted(t).answer(core.Approve)
	p.send(core.StreamFailed{Generation: 2, Kind: core.Transport, Reason: "HTTP 422"})
	p.send(core.ClickedRecover{})
	if p.m.Run.ThreadID != "thread-1-2" || p.m.Run.Resume != nil || p.m.Run.Scenario != "normal" {
		t.Errorf("recover: %+v", p.m.Run)
	}
	p = interrupted(t).answer(core.Approve)
	p.events(2, `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-2"}`, `{"type":"RUN_ERROR","message":"no"}`)
	p.send(core.ClickedRecover{})
	if p.m.Run.ThreadID != thread {
		t.Errorf("recover after the answer was taken: %+v", p.m.Run)
	}
}

// Cancel and navigation keep their rules while a question is open: Cancel
// has no run to stop; leaving closes the connection and keeps the
// question, which can still be answered on coming back.
func TestCancelAndNavigationWhileAsked(t *testing.T) {
	evs := script(t, "approval", 1)
	p := start(t).run("approval").events(1, evs...)
	frozen := p.m
	p.send(core.ClickedCancel{})
	if !reflect.DeepEqual(p.m, frozen) || p.lastCmd() != nil {
		t.Error("Cancel did something while asked")
	}
	p.send(core.Navigated{To: core.Exited})
	if _, asked := p.m.Lifecycle.(core.Interrupted); !asked || p.lastCmd() != (core.AbortStream{Generation: 1}) || p.m.Connection != 0 {
		t.Fatalf("leaving: %#v %#v", p.m.Lifecycle, p.lastCmd())
	}
	p.answer(core.Approve).resumed(2, "approved")
	if p.m.Lifecycle != (core.Completed{RunID: "run-2"}) || p.latency("api") != 60 {
		t.Errorf("%#v", p.m.Lifecycle)
	}
}

// A late RUN_ERROR after the interrupt fails the run: the agent's own
// report, and nothing to answer any more.
func TestALateErrorEndsTheQuestion(t *testing.T) {
	evs := script(t, "approval", 1)
	p := start(t).run("approval").events(1, evs...).events(1, `{"type":"RUN_ERROR","message":"gave up"}`)
	p.failed(core.AgentReported, core.RuleRunEnding, "", "gave up")
	frozen := p.m
	p.send(core.ClickedAnswer{Interrupt: "rollback-api", Choice: core.Approve, At: p.now})
	if !reflect.DeepEqual(p.m, frozen) {
		t.Error("answered a failed run")
	}
}

// Every script that continues, played as the runtime plays it and
// answered as each continuation's "when" asks, ends as the continuation's
// outcome says, on the same thread; a fault in a continuation warns.
func TestEveryContinuationEndsAsItsOutcomeSays(t *testing.T) {
	for _, s := range fixtures.All() {
		for _, c := range s.Continuations {
			t.Run(s.Name+"/"+c.Name, func(t *testing.T) {
				choice := core.CancelRequest
				for _, w := range c.When {
					switch {
					case w.Status == "resolved" && strings.Contains(string(w.Payload), "true"):
						choice = core.Approve
					case w.Status == "resolved":
						choice = core.Reject
					}
				}
				models := fixturetest.MustPlay(t, s.Name)
				models = fixturetest.MustAnswer(t, models[len(models)-1], choice, c.Name)
				m := models[len(models)-1]
				checkEnding(t, m, s.Continued[c.Name])
				if m.Run.ThreadID != thread || m.Run.RunID != "run-2" || m.Asking {
					t.Errorf("resumed as %+v, asking %v", m.Run, m.Asking)
				}
				if warns := s.Rule.Continuation == c.Name && s.Group == fixtures.Warn; warns != (m.Warned > 0) {
					t.Errorf("%d warnings", m.Warned)
				}
			})
		}
	}
}
