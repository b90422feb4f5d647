package core

import (
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
)

// Generation numbers the runs of one page: the nth run started has
// generation n. It is the identity of the run's local connection: every
// transport Msg carries one, and Msgs of any generation but the open
// connection's are no-ops.
type Generation int

// Run describes one requested run (the spec's request descriptor). It is
// immutable: the stream depends on nothing else.
type Run struct {
	Generation Generation
	ThreadID   string
	RunID      string
	Scenario   string
	Resume     *Resume // what the run answers, when it resumes an interrupted one; nil for a fresh run
}

// Resume is what a resumed run's input carries besides its ids (basic/
// patterns/interrupt-resume): the interrupts it answers, the answers, the
// state and the conversation the interrupted run left. Never modified
// once made.
type Resume struct {
	Pending  agui.Pending  // the interrupted run's open interrupts
	Answers  []agui.Answer // one per interrupt, in the Pending's order
	At       time.Time     // when the person answered: an expiry is judged against it
	State    Wire          // the thread's state now: the input's state
	Messages []byte        // the conversation so far, a JSON array
}

// Lifecycle is the run's state, a closed sum: exactly the types below.
type Lifecycle interface {
	// String is the status word shown to people.
	String() string
	lifecycle()
}

// Idle: no run has started.
type Idle struct{}

// Connecting: the request is out; the requested run's RUN_STARTED has not
// arrived (replayed runs before it may have).
type Connecting struct{ Run Run }

// AwaitingSnapshot: the run started and has no state of its own yet; the
// screen keeps the last valid data.
type AwaitingSnapshot struct{ Run Run }

// Streaming: the run's state is the screen's data.
type Streaming struct{ Run Run }

// Completed: RUN_FINISHED with a success outcome (or none).
type Completed struct{ RunID string }

// Cancelled: the run stopped before it completed, and did not fail.
type Cancelled struct {
	RunID string
	Cause CancelCause
}

// Interrupted: RUN_FINISHED with the interrupt outcome: the agent waits
// for input. The person answers (ClickedAnswer) and a new run on the same
// thread resumes it (rule 5); it holds what that run's input needs.
type Interrupted struct {
	RunID    string
	Pending  agui.Pending // the interrupts, every one of which the resume answers
	Expired  []bool       // per interrupt: expired when the run ended (as the edge's clock said)
	Asked    int          // the interrupt the screen asks about (askFirst)
	Messages []byte       // the conversation when the run ended, a JSON array
	State    Wire         // the thread's state when the run ended, replayed runs' carried over
}

// Question is the interrupt the screen asks the person about (Asked), and
// its index; -1 when there is none. Answering it covers the others too:
// they are cancelled.
func (l Interrupted) Question() (int, agui.Interrupt) {
	if l.Asked < 0 || l.Asked >= len(l.Pending.Interrupts) {
		return -1, agui.Interrupt{}
	}
	return l.Asked, l.Pending.Interrupts[l.Asked]
}

// askFirst is the question an interrupted run asks: the first approval
// (Interrupt.Approval) not expired, else the first interrupt. It is chosen
// once, when the run ends, so that an approval expiring while shown stays
// the question, and says so.
func askFirst(interrupts []agui.Interrupt, expired []bool) int {
	for i, in := range interrupts {
		if _, ok := in.Approval(); ok && !expired[i] {
			return i
		}
	}
	if len(interrupts) == 0 {
		return -1
	}
	return 0
}

// Approval is the boolean field the question asks for, when Approve and
// Reject can answer it: a one-boolean responseSchema, not expired.
func (l Interrupted) Approval() (string, bool) {
	i, in := l.Question()
	if i < 0 || l.expired(i) {
		return "", false
	}
	return in.Approval()
}

// QuestionExpired reports whether the question had expired when the run
// ended, or when the person tried to answer it: it can only be cancelled.
func (l Interrupted) QuestionExpired() bool {
	i, _ := l.Question()
	return i >= 0 && l.expired(i)
}

func (l Interrupted) expired(i int) bool { return i < len(l.Expired) && l.Expired[i] }

// Failed: the run ended badly; nothing more of it is accepted.
type Failed struct {
	RunID     string
	Kind      FailureKind
	DecidedBy LifecycleRule // the lifecycle rule that decided it
	Broke     agui.Rule     // the engine's rule: the AG-UI 1.x rule a Protocol failure broke, or what a Refusal chose (StateRefused, Limit)
	Reason    string
}

// CancelCause says who stopped a run.
type CancelCause int

const (
	ByUser    CancelCause = iota // the Cancel button
	RouteExit                    // navigation away from the demo
	ByAgent                      // RUN_FINISHED's cancelled outcome
)

func (c CancelCause) String() string {
	switch c {
	case RouteExit:
		return "left the page"
	case ByAgent:
		return "cancelled by the agent"
	}
	return "cancelled by you"
}

// FailureKind says who ended a failed run (events/lifecycle: "A consumer
// MUST NOT present one as the other").
type FailureKind int

// A run this demo ends by its own choice is never shown as a broken
// protocol: where AG-UI 1.x lets a client go on, the demo says it chose to
// stop (Refusal), and a state it cannot draw is its own limit
// (Undrawable).
const (
	AgentReported FailureKind = iota // the agent's own RUN_ERROR
	Protocol                         // the stream broke a fatal rule of AG-UI 1.x
	Transport                        // the request or the connection failed, or the stream ended early
	Refusal                          // this demo's own rule: an update 1.x lets a client refuse or go on without, or its own bounds
	Undrawable                       // a state that is not {services: [...]}, the only state this demo draws; 1.x allows any JSON
)

func (k FailureKind) String() string {
	switch k {
	case AgentReported:
		return "reported by the agent"
	case Protocol:
		return "the stream broke AG-UI 1.x"
	case Refusal:
		return "this demo refused it"
	case Undrawable:
		return "this demo draws only {services: [...]} state"
	}
	return "the connection failed"
}

// Who is who ended the run, as the status line says it.
func (k FailureKind) Who() string {
	switch k {
	case AgentReported:
		return "the agent"
	case Protocol:
		return "the stream"
	case Refusal, Undrawable:
		return "this demo"
	}
	return "the connection"
}

func (Idle) String() string             { return "Idle" }
func (Connecting) String() string       { return "Connecting" }
func (AwaitingSnapshot) String() string { return "Awaiting snapshot" }
func (Streaming) String() string        { return "Streaming" }
func (Completed) String() string        { return "Completed" }
func (Cancelled) String() string        { return "Cancelled" }
func (Interrupted) String() string      { return "Interrupted" }
func (Failed) String() string           { return "Failed" }

func (Idle) lifecycle()             {}
func (Connecting) lifecycle()       {}
func (AwaitingSnapshot) lifecycle() {}
func (Streaming) lifecycle()        {}
func (Completed) lifecycle()        {}
func (Cancelled) lifecycle()        {}
func (Interrupted) lifecycle()      {}
func (Failed) lifecycle()           {}

// ActiveRun returns the run that is still going, if any.
func ActiveRun(l Lifecycle) (Run, bool) {
	switch l := l.(type) {
	case Connecting:
		return l.Run, true
	case AwaitingSnapshot:
		return l.Run, true
	case Streaming:
		return l.Run, true
	default:
		return Run{}, false
	}
}

// LifecycleRule is one of the demo's run lifecycle rules, numbered as
// docs/agent-analysis.md numbers them; each rests on AG-UI 1.x pages.
type LifecycleRule int

const (
	RuleNewRun        LifecycleRule = iota + 1 // Run starts a fresh run
	RuleRequestedRun                           // the requested run, and its first state is the baseline
	RuleAtomicDelta                            // a delta applies whole or not at all
	RuleBrokenStream                           // a broken rule or a refused state fails the run
	RuleRecover                                // Recover starts one fresh normal run; an answer starts one resumed run
	RuleRunEnding                              // how a run ends: its outcome, a late RUN_ERROR, truncation
	RuleCancel                                 // Cancel stops an active run and starts nothing
	RuleOtherFamilies                          // other families are checked, not shown; RUN_ERROR is the agent's
)

var lifecycleRules = map[LifecycleRule]struct{ text, page string }{
	RuleNewRun: {"Run starts a fresh run that declares protocolVersion 1.1 and the empty services state; data, filter and selection stay; " +
		"while a question is open it leaves it unanswered and starts a new thread", "basic/run-input"},
	RuleRequestedRun: {"the run the request asked for opens with its own RUN_STARTED; its first applied state is the baseline", "basic/run-input"},
	RuleAtomicDelta:  {"a delta applies atomically, or not at all; an unrecognised operation is dropped with a warning", "basic/patterns/snapshots"},
	RuleBrokenStream: {"a broken AG-UI 1.x rule fails the run; so do, by this demo's choice where 1.x lets a client go on, " +
		"a state update it cannot apply and a state that is not {services: [...]}; the last valid data stays", "basic/processing"},
	RuleRecover: {"Recover starts one fresh normal run from Failed; answering a question (Approve, Reject, Cancel request) starts one " +
		"resumed run on the same thread, carrying the answers, the current state and the conversation; data, filter, selection and baseline carry over",
		"basic/patterns/interrupt-resume"},
	RuleRunEnding:     {"RUN_FINISHED ends the run by its outcome; a later RUN_ERROR fails it; a stream that just ends fails it (transport), never a success", "events/lifecycle"},
	RuleCancel:        {"Cancel stops an active run and starts nothing", "events/lifecycle"},
	RuleOtherFamilies: {"other 1.x events are checked and not shown; RUN_ERROR fails the run as the agent's own report", "events"},
}

func (r LifecycleRule) String() string { return lifecycleRules[r].text }

// Page is the AG-UI spec page the rule follows, under
// docs.ag-ui.com/spec/1.0/ (1.1 only adds to it).
func (r LifecycleRule) Page() string { return lifecycleRules[r].page }
