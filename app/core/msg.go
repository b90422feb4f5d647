package core

import (
	"time"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
)

// Msg is a fact that happened: a click, an event, a closed stream.
type Msg interface{ msg() }

// ClickedRun: the user asked for a run of a scenario.
type ClickedRun struct{ Scenario string }

// ClickedCancel: the user asked to stop the run.
type ClickedCancel struct{}

// ClickedRecover: the user asked for a fresh normal run after a failure.
type ClickedRecover struct{}

// ClickedFilter: the user picked a series filter.
type ClickedFilter struct{ Filter Filter }

// ClickedService: the user selected a service (by click or keyboard).
type ClickedService struct{ ID string }

// ReceivedEvent: a run's connection delivered one AG-UI event, checked
// against the AG-UI SDK's rules. JSON is the event as it arrived: the
// state events are read from it exactly. At is when it arrived, since the
// run's request went out.
type ReceivedEvent struct {
	Generation Generation
	Event      events.Event
	JSON       []byte
	At         time.Duration
}

// StreamFailed: a run's connection could not go on, for a reason of this
// kind (Protocol: what arrived was not AG-UI; Transport: the request or
// the connection failed).
type StreamFailed struct {
	Generation Generation
	Kind       FailureKind
	Reason     string
}

// StreamClosed: a run's stream ended.
type StreamClosed struct{ Generation Generation }

// Navigated: the user moved between the demo's pages, or left them (a
// route outside the demo, a reload, a closed tab).
type Navigated struct{ To Destination }

// Destination is where a navigation went.
type Destination int

const (
	Stayed Destination = iota // another page of the demo: the stream goes on
	Exited                    // away from the demo
)

func (ClickedRun) msg()     {}
func (ClickedCancel) msg()  {}
func (ClickedRecover) msg() {}
func (ClickedFilter) msg()  {}
func (ClickedService) msg() {}
func (ReceivedEvent) msg()  {}
func (StreamFailed) msg()   {}
func (StreamClosed) msg()   {}
func (Navigated) msg()      {}
