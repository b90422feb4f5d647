package core

import (
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
)

// Msg is a fact that happened: a click, an event, a closed stream.
type Msg interface{ msg() }

// ChoseScenario: the user picked a scenario for the next run.
type ChoseScenario struct{ Name string }

// ClickedRun: the user asked for a run of the chosen scenario.
type ClickedRun struct{}

// ClickedCancel: the user asked to stop the run.
type ClickedCancel struct{}

// ClickedRecover: the user asked for a fresh normal run after a failure.
type ClickedRecover struct{}

// ClickedFilter: the user picked a series filter.
type ClickedFilter struct{ Filter Filter }

// ClickedService: the user selected a service (by click or keyboard).
type ClickedService struct{ ID string }

// Received: a run's connection delivered one event, and the AG-UI 1.x
// consumer engine judged it (agui). JSON is the event as it
// arrived; At is when, since the run's request went out; Now is the wall
// clock then (an interrupt's expiry is judged against it).
type Received struct {
	Generation Generation
	At         time.Duration
	Now        time.Time
	JSON       []byte
	Judgement  agui.Judgement
	// Conversation is the engine's conversation after this event, a JSON
	// array, when the event left the requested run interrupted: the
	// resumed run's input carries it. Nil otherwise.
	Conversation []byte
}

// ClickedAnswer: the person answered the open question (Interrupted's
// Question, by its interrupt id) at At, by the screen's clock.
type ClickedAnswer struct {
	Interrupt string
	Choice    Choice
	At        time.Time
}

// Choice is the person's answer to a question.
type Choice int

const (
	Approve       Choice = iota + 1 // resolved, {field: true}
	Reject                          // resolved, {field: false}: a denial is an answer, not a cancellation
	CancelRequest                   // every interrupt cancelled: the agent goes on without an answer
)

func (c Choice) String() string {
	switch c {
	case Approve:
		return "approved"
	case Reject:
		return "rejected"
	case CancelRequest:
		return "cancelled the request"
	}
	return "no answer"
}

// StreamFailed: a run's connection could not go on: the request was
// refused or failed, the connection broke (Transport), or a frame could
// not be taken at all (Protocol, with the rule it broke).
type StreamFailed struct {
	Generation Generation
	Kind       FailureKind
	Broke      agui.Rule
	Reason     string
}

// StreamClosed: a run's stream ended. Truncated says why the engine
// judges it cut short ("" when every run ended).
type StreamClosed struct {
	Generation Generation
	Truncated  string
}

// Navigated: the user moved between the demo's pages, or left them (a
// route outside the demo, a reload, a closed tab).
type Navigated struct{ To Destination }

// Destination is where a navigation went.
type Destination int

const (
	Stayed Destination = iota // another page of the demo: the stream goes on
	Exited                    // away from the demo
)

func (ChoseScenario) msg()  {}
func (ClickedRun) msg()     {}
func (ClickedCancel) msg()  {}
func (ClickedRecover) msg() {}
func (ClickedFilter) msg()  {}
func (ClickedService) msg() {}
func (ClickedAnswer) msg()  {}
func (Received) msg()       {}
func (StreamFailed) msg()   {}
func (StreamClosed) msg()   {}
func (Navigated) msg()      {}
