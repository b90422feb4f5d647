package page

import "github.com/agent-analysis/agent-analysis/kit/inspect/runs"

// Msg is a fact: something the person did, or an answer the runtime
// brings back.
type Msg interface{ msg() }

// Located: the URL's fragment, as the page loads or as the person goes
// back and forth: it may name a run and an event to show.
type Located struct{ Hash string }

// LiveOpened: the live feed is (again) connected: what was missed is read anew.
type LiveOpened struct{}

// LiveLost: the live feed broke; the browser reconnects by itself.
type LiveLost struct{}

// LiveUpdate: one change the store told of.
type LiveUpdate struct{ Update runs.Update }

// GotRuns: the list of runs, or why it could not be read.
type GotRuns struct {
	Runs []runs.Run
	Err  error
}

// GotDetail: a run's detail; Gone when the inspector no longer keeps it.
type GotDetail struct {
	ID     string
	Detail runs.Detail
	Gone   bool
	Err    error
}

// GotEvents: a page of a run's events, read from From on.
type GotEvents struct {
	ID     string
	From   int
	Events []runs.Event
	More   bool
	Gone   bool
	Err    error
}

// GotAt: the state and conversation after one event of a run.
type GotAt struct {
	ID  string
	At  runs.At
	Err error
}

// ChoseEvent: the person selected an event (-1: before the first).
type ChoseEvent struct{ Index int }

// Stepped: the person stepped through the events, By of them (negative:
// back); To jumps to the first (First) or the last (Last) instead.
type Stepped struct {
	By int
	To Jump
}

// Jump is where a step lands when it is no count of events.
type Jump int

const (
	NoJump Jump = iota
	First       // before the first event
	Final       // the last event read
)

// Scrolled: the timeline's box moved or changed size.
type Scrolled struct{ Top, Height, RowPx float64 }

// Toggled: the person opened or closed a node of the state's tree.
type Toggled struct {
	Pointer string
	Open    bool
}

// ShowWhole: the person asked for all of a long text (Clip), named by its
// place: "message:ID", "arguments:ID", "result:ID" or "event:INDEX".
type ShowWhole struct{ Key string }

// ChoseCopy: the person asked for the run as a script, a capture or a
// check command on the clipboard.
type ChoseCopy struct{ What Export }

// Copied: the clipboard took the text, or not.
type Copied struct {
	What Export
	ID   string
	Err  error
}

// ChoseFiles: the person dropped files on the page or picked them.
type ChoseFiles struct{ Files []File }

// File is a file the person handed the page: its name, and the browser's
// handle on its bytes, which only the runtime reads.
type File struct {
	Name   string
	Handle any
}

// Opened: the inspector read a file, and said what it skipped.
type Opened struct {
	Name string
	Said []string
	Err  error
}

func (Located) msg()    {}
func (LiveOpened) msg() {}
func (LiveLost) msg()   {}
func (LiveUpdate) msg() {}
func (GotRuns) msg()    {}
func (GotDetail) msg()  {}
func (GotEvents) msg()  {}
func (GotAt) msg()      {}
func (ChoseEvent) msg() {}
func (Stepped) msg()    {}
func (Scrolled) msg()   {}
func (Toggled) msg()    {}
func (ShowWhole) msg()  {}
func (ChoseCopy) msg()  {}
func (Copied) msg()     {}
func (ChoseFiles) msg() {}
func (Opened) msg()     {}
