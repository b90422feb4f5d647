package app

import "github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"

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

// ReceivedEvent: a connection delivered one decoded AG-UI event.
type ReceivedEvent struct {
	Conn  Conn
	Event events.Event
}

// StreamFailed: a connection could not continue; Err is a *TransportError
// or a *ProtocolError.
type StreamFailed struct {
	Conn Conn
	Err  error
}

// StreamClosed: a connection's stream ended.
type StreamClosed struct{ Conn Conn }

// Navigated: the user moved between the demo's pages, or left them.
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
