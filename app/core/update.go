package core

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui"
)

// Update is the whole behaviour of the demo: given a Model and a fact, the
// next Model and the effect to run. It does no I/O. The AG-UI 1.0 engine
// has judged each event before it arrives here (Received.Judgement); Update
// decides what the demo does with the judgement. "Rule" names below are
// the lifecycle rules of lifecycle.go, numbered in docs/agent-analysis.md.
func Update(m Model, msg Msg) (Model, Cmd) {
	switch msg := msg.(type) {
	case ChoseScenario:
		m.Scenario = msg.Name
		return m, nil
	case ClickedRun:
		return startRun(m, m.Scenario, nil)
	case ClickedRecover:
		if _, failed := m.Lifecycle.(Failed); !failed {
			return m, nil
		}
		m.Scenario = "normal" // the next Run repeats the recovery, not the failure
		return startRun(m, "normal", nil)
	case ClickedAnswer:
		return answer(m, msg)
	case ClickedCancel:
		return stopRun(m, ByUser)
	case Navigated:
		if msg.To == Exited {
			return stopRun(m, RouteExit)
		}
		return m, nil
	case ClickedFilter:
		m.Filter = msg.Filter
		return reconcileSelection(m), nil
	case ClickedService:
		if m.Shows(msg.ID) {
			m.Selected = msg.ID
		}
		return m, nil
	case Received:
		switch {
		case msg.Generation == m.Connection && m.Connection > 0:
			return receive(m, msg)
		case msg.Generation == m.Generation && m.Generation > 0:
			return arrive(m, msg, AfterTheEnd), nil // queued behind the connection's end: shown, never applied
		}
	case StreamFailed:
		if msg.Generation == m.Connection && m.Connection > 0 {
			return streamFailed(m, msg)
		}
	case StreamClosed:
		if msg.Generation == m.Connection && m.Connection > 0 {
			m.Connection = 0
			if _, active := ActiveRun(m.Lifecycle); active {
				why := "the stream ended before the run's terminal event"
				if msg.Truncated != "" {
					why = msg.Truncated
				}
				return fail(m, Transport, RuleRunEnding, "", why)
			}
			return m, nil
		}
	}
	// Anything else, including every Msg of a connection no longer open.
	return m, nil
}

// startRun (rules 1 and 5): a fresh run, or one resuming an interrupted
// run, replaces any open connection; the last valid data, filter and
// selection stay; per-run counters reset. A fresh run starts from the
// empty state, so the baseline goes; a resumed run goes on from the
// thread's state, so its baseline stays: the table shows the net effect
// of the whole exchange. A fresh run never continues a thread with a
// question open (1.x: the run that continues a thread answers every
// interrupt): it leaves the question unanswered and starts the next thread.
func startRun(m Model, scenario string, resume *Resume) (Model, Cmd) {
	var cmds Sequence
	if m.Connection > 0 {
		cmds = append(cmds, AbortStream{m.Connection})
		if old, active := ActiveRun(m.Lifecycle); active {
			m = logf(m, old.RunID, Warning, "replaced by a new run")
		}
	}
	if m.Asking && resume == nil {
		left := m.ThreadID()
		m.Abandoned++
		m.Asking = false
		m = logf(m, m.Run.RunID, Warning, "left the question on thread %s unanswered: the new run starts thread %s", left, m.ThreadID())
	}
	m.Generation++
	m.Run = Run{
		Generation: m.Generation,
		ThreadID:   m.ThreadID(),
		RunID:      "run-" + strconv.Itoa(int(m.Generation)),
		Scenario:   scenario,
		Resume:     resume,
	}
	m.Connection = m.Generation
	m.Lifecycle = Connecting{m.Run}
	if resume == nil {
		m.Baseline = nil
	}
	m.Accepted = 0
	m.Warned = 0
	m.Arrivals = nil
	if resume != nil {
		return logf(m, m.Run.RunID, Info, "requested the %s scenario, resuming %s", scenario, resume.Pending.RunID), append(cmds, StartStream{m.Run})
	}
	m = logf(m, m.Run.RunID, Info, "requested the %s scenario", scenario)
	return m, append(cmds, StartStream{m.Run})
}

// answer (rule 5): the person's answer to the open question starts one
// run that resumes the interrupted one, on the same thread, with a resume
// entry for every interrupt: the question's answer, and the others
// cancelled. Approve and Reject need an approval that has not expired (an
// expired interrupt can only be cancelled); anything else, or an answer to
// a question no longer open, changes nothing.
func answer(m Model, msg ClickedAnswer) (Model, Cmd) {
	l, open := m.Lifecycle.(Interrupted)
	q, question := l.Question()
	if !open || q < 0 || msg.Interrupt != question.ID {
		return m, nil
	}
	answers := make([]agui.Answer, len(l.Pending.Interrupts))
	for i, in := range l.Pending.Interrupts {
		answers[i] = agui.Answer{InterruptID: in.ID, Status: agui.Abandoned}
	}
	switch msg.Choice {
	case Approve, Reject:
		field, ok := l.Approval()
		if !ok {
			return m, nil
		}
		if question.Expired(msg.At) { // expired while it was shown
			expired := make([]bool, len(l.Pending.Interrupts)) // a new slice: other Models share the old one
			copy(expired, l.Expired)
			expired[q] = true
			l.Expired = expired
			m.Lifecycle = l
			return logf(m, l.RunID, Warning, "the question expired at %s: it can only be cancelled", Clip(question.ExpiresAt)), nil
		}
		answers[q] = agui.Approve(question, field, msg.Choice == Approve)
	case CancelRequest:
	default:
		return m, nil
	}
	m = logf(m, l.RunID, Info, "you %s: resuming the run on thread %s", msg.Choice, l.Pending.ThreadID)
	return startRun(m, m.Run.Scenario, &Resume{Pending: l.Pending, Answers: answers, At: msg.At, State: l.State, Messages: l.Messages})
}

// stopRun (rule 7, and leaving the demo): only an active run can be
// cancelled, and nothing replaces it. Leaving also closes a connection
// still open after its run ended.
func stopRun(m Model, cause CancelCause) (Model, Cmd) {
	run, active := ActiveRun(m.Lifecycle)
	if !active {
		if cause == RouteExit && m.Connection > 0 {
			return closeConnection(m)
		}
		return m, nil
	}
	m.Lifecycle = Cancelled{RunID: run.RunID, Cause: cause}
	m = logf(m, run.RunID, Warning, "%s; the request was aborted", cause)
	return closeConnection(m)
}

// closeConnection aborts the open connection: nothing queued on it will
// be applied.
func closeConnection(m Model) (Model, Cmd) {
	g := m.Connection
	m.Connection = 0
	return m, AbortStream{g}
}

// receive acts on one judged event of the open connection (rules 2, 3, 4,
// 6 and 8).
func receive(m Model, msg Received) (Model, Cmd) {
	j, runID := msg.Judgement, m.Run.RunID
	m.Warned += len(j.Warnings)
	for _, w := range j.Warnings {
		m = logf(m, runID, Warning, "%s", Clip(w.Text))
	}
	if v := j.Violation; v != nil {
		if j.Change.Kind == agui.Refused { // this demo refused the state (rule 4)
			r := rejection(runID, j, countOps(msg.JSON))
			m.Rejections = appendBounded(m.Rejections, r, MaxRejections)
			m = arrive(m, msg, Refused)
			kind := Refusal
			if r.Undrawable() {
				kind = Undrawable
			}
			return fail(m, kind, RuleBrokenStream, v.Rule, r.String())
		}
		m = arrive(m, msg, RunFailed)
		return fail(m, kindOf(v.Rule), RuleBrokenStream, v.Rule, Clip(v.Reason))
	}
	if len(j.Events) == 0 {
		return arrive(m, msg, Dropped), nil
	}
	verdict := Checked
	for _, ev := range j.Events {
		var v Verdict
		switch ev.Type {
		case agui.RunStarted:
			m, v = runStarted(m, j.Run)
		case agui.StateSnapshot, agui.StateDelta:
			m, v = stateChanged(m, j)
		case agui.RunFinished:
			m, v = runFinished(m, j.Run, msg)
		case agui.RunError:
			m = arrive(m, msg, RunFailed)
			return runError(m, j.Run)
		default:
			v = Checked // rule 8: checked by the engine, not shown
		}
		if v == Applied {
			verdict = Applied
		}
	}
	return arrive(m, msg, verdict), nil
}

// requested reports whether the engine's run is the one this page asked
// for.
func requested(r *agui.Run) bool { return r != nil && r.Requested }

// runStarted (rule 2): the requested run's RUN_STARTED awaits its state;
// a replayed run before it only carries its state over.
func runStarted(m Model, r *agui.Run) (Model, Verdict) {
	if !requested(r) {
		return logf(m, m.Run.RunID, Info, "replayed run %q started: its events are checked, its state carried over", Clip(r.RunID)), Checked
	}
	if m.Run.Resume != nil {
		m.Asking = false // the agent took the answers
	}
	if _, connecting := m.Lifecycle.(Connecting); connecting {
		m.Lifecycle = AwaitingSnapshot{m.Run}
		// A resumed run's state starts as the thread's, which the screen
		// shows already (it went out as the input's state).
		if m.Run.Resume != nil && m.Baseline != nil {
			m.Lifecycle = Streaming{m.Run}
			return logf(m, m.Run.RunID, Info, "started, resuming %s from the state it left", m.Run.Resume.Pending.RunID), Applied
		}
	}
	return logf(m, m.Run.RunID, Info, "started"), Applied
}

// stateChanged (rules 2 and 3): the requested run's applied state is the
// screen's data; the first one is the baseline.
func stateChanged(m Model, j agui.Judgement) (Model, Verdict) {
	if !requested(j.Run) || j.Change.Kind != agui.Applied {
		return m, Checked
	}
	w := j.Change.State.(Services).Wire
	m.Wire = &w
	m.Accepted++
	what := fmt.Sprintf("snapshot of %d services", w.Len())
	if j.Type == agui.StateDelta {
		what = "delta applied"
	}
	if _, first := m.Lifecycle.(AwaitingSnapshot); first {
		m.Baseline = byID(w)
		m.Lifecycle = Streaming{m.Run}
		what += ": the baseline"
	}
	return reconcileSelection(logf(m, m.Run.RunID, Info, "%s", what)), Applied
}

// runFinished (rule 6): the requested run ends by its outcome. The
// connection stays open to its end: a late RUN_ERROR may still come. An
// interrupted run keeps what its resume needs, each interrupt's expiry
// judged by the clock the event came with.
func runFinished(m Model, r *agui.Run, msg Received) (Model, Verdict) {
	if !requested(r) {
		return logf(m, m.Run.RunID, Info, "replayed run %q finished", Clip(r.RunID)), Checked
	}
	switch r.Outcome.Kind {
	case agui.OutcomeCancelled:
		m.Lifecycle = Cancelled{RunID: m.Run.RunID, Cause: ByAgent}
		m = logf(m, m.Run.RunID, Warning, "cancelled by the agent: partial work, not a success")
	case agui.OutcomeInterrupt:
		l := Interrupted{
			RunID:    m.Run.RunID,
			Pending:  agui.Pending{ThreadID: r.ThreadID, RunID: r.RunID, Interrupts: r.Outcome.Interrupts},
			Expired:  make([]bool, len(r.Outcome.Interrupts)),
			Messages: msg.Conversation,
			State:    NewWire(nil),
		}
		if s, ok := msg.Judgement.Change.State.(Services); ok { // the engine's: a replayed run's too
			l.State = s.Wire
		}
		for i, in := range r.Outcome.Interrupts {
			l.Expired[i] = in.Expired(msg.Now)
		}
		l.Asked = askFirst(l.Pending.Interrupts, l.Expired)
		m.Lifecycle, m.Asking = l, true
		m = logf(m, m.Run.RunID, Warning, "interrupted: the agent waits for an answer to %d question(s)", len(l.Pending.Interrupts))
	default:
		m.Lifecycle = Completed{RunID: m.Run.RunID}
		m = logf(m, m.Run.RunID, Info, "completed")
	}
	return m, Applied
}

// runError (rules 6 and 8): the agent's own report that its run failed —
// never shown as a protocol violation. A replayed run's failure is
// history; one before any run began is the requested run's.
func runError(m Model, r *agui.Run) (Model, Cmd) {
	if r != nil && r.RunID != "" && !r.Requested {
		return logf(m, m.Run.RunID, Warning, "replayed run %q failed: %s", Clip(r.RunID), Clip(r.Error.Message)), nil
	}
	rule, reason := RuleOtherFamilies, "RUN_ERROR: "+Clip(r.Error.Message)
	if r.Error.Late {
		rule, reason = RuleRunEnding, "RUN_ERROR after the run finished: "+Clip(r.Error.Message)
	}
	if r.Error.Code != "" {
		reason += " (" + Clip(r.Error.Code) + ")"
	}
	return fail(m, AgentReported, rule, "", reason)
}

// streamFailed: the connection could not go on. An active run fails; a
// run that already ended keeps its ending, unless the stream broke a rule
// after it (rule 6: an event over the engine's bound, as any later event
// that breaks a rule).
func streamFailed(m Model, msg StreamFailed) (Model, Cmd) {
	if _, active := ActiveRun(m.Lifecycle); !active && msg.Broke == "" {
		return closeConnection(m)
	}
	rule, kind := RuleRunEnding, msg.Kind
	switch {
	case msg.Broke != "":
		rule, kind = RuleBrokenStream, kindOf(msg.Broke)
	case kind == Protocol:
		rule = RuleBrokenStream
	case kind == Refusal: // an answer the engine would not send
		rule = RuleRecover
	}
	return fail(m, kind, rule, msg.Broke, Clip(msg.Reason))
}

// kindOf says whose rule a violation is: a fatal rule of AG-UI 1.x, or
// one of this demo's own choices the engine enforces for it (failing over
// a refused state where 1.x lets a client go on; its bounds).
func kindOf(r agui.Rule) FailureKind {
	if r == agui.StateRefused || r == agui.Limit {
		return Refusal
	}
	return Protocol
}

// fail (rule 4, 6 or 8): the run ends; the last valid data, filter and
// selection stay; its connection is aborted so nothing queued can follow.
func fail(m Model, kind FailureKind, rule LifecycleRule, broke agui.Rule, reason string) (Model, Cmd) {
	m.Lifecycle = Failed{RunID: m.Run.RunID, Kind: kind, DecidedBy: rule, Broke: broke, Reason: reason}
	m = logf(m, m.Run.RunID, Problem, "failed (%s): %s", kind, reason)
	if m.Connection == 0 {
		return m, nil
	}
	return closeConnection(m)
}

// countOps is how many operations a STATE_DELTA carried as sent, for the
// rejection's "operation 2 of 2".
func countOps(event []byte) int {
	dec := jsontext.NewDecoder(bytes.NewBuffer(event))
	if _, err := dec.ReadToken(); err != nil {
		return 0
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return 0
		}
		if name.String() != "delta" {
			dec.SkipValue()
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return 0
		}
		n := 0
		for dec.PeekKind() != ']' && dec.PeekKind() != 0 {
			if dec.SkipValue() != nil {
				return 0
			}
			n++
		}
		return n
	}
	return 0
}

// reconcileSelection keeps the selection by id while it stays visible.
func reconcileSelection(m Model) Model {
	if m.Selected != "" && !m.Shows(m.Selected) {
		m.Selected = ""
	}
	return m
}

func byID(w Wire) map[string]Service {
	out := make(map[string]Service, w.Len())
	for _, s := range w.All() {
		out[s.ID] = s
	}
	return out
}

func logf(m Model, runID string, level Level, format string, args ...any) Model {
	m.Activity = appendBounded(m.Activity, Entry{RunID: runID, Level: level, Text: fmt.Sprintf(format, args...)}, MaxActivity)
	return m
}
