package page

import "github.com/agent-analysis/agent-analysis/kit/inspect/runs"

// Model is everything the page knows. Update makes a new one for each
// Msg; views only read it. Slices in it are only ever appended to, so
// Models share them.
type Model struct {
	Runs   []runs.Run // newest first
	Listed bool       // the first list has arrived
	Live   Link
	// Status is the last thing the page has to tell: a file opened, a copy
	// made or failed, a read that failed. The live region says it.
	Status string
	Shown  Shown // the run selected; ID "" for none
}

// Link is the state of the live feed.
type Link int

const (
	Connecting Link = iota
	Connected
	Lost // the browser retries on its own
)

// Shown is the selected run, as far as the page has read it.
type Shown struct {
	ID      string
	Detail  *runs.Detail // nil until read
	Gone    bool         // the inspector let it go (or never had it)
	Reading reads        // what is being read now, at most one of each

	// Events are its kept events and comments, in order, as read so far;
	// More says more are kept; Pos maps an event's index to its place in
	// Events (comments have no index).
	Events []runs.Event
	More   bool
	Pos    []int

	// Cursor is the event the state and the conversation are shown after;
	// -1 before the first.
	Cursor int
	At     *runs.At // as read for Cursor, or for an earlier cursor while reading

	// Asked is the run this one answers, for its questions; Answer the run
	// that answered this one, for its replies.
	Asked, Answer *runs.Detail

	Scroll Scroll
	// Open overrides whether a node of the state's tree is open, by its
	// JSON Pointer; the rest follow Opened.
	Open map[string]bool
	// Whole is the long texts shown whole (ShowWhole), by their keys.
	Whole map[string]bool
}

// reads are the requests in flight for the shown run, and whether what
// they read has changed since they were sent (read again when they land).
type reads struct {
	Detail, Events, At       bool
	DetailAgain, EventsAgain bool
	AtIndex                  int // the event the read in flight is for
}

// Scroll is where the timeline's box is.
type Scroll struct {
	Top    float64 // its scrollTop, CSS px
	Height float64 // its clientHeight
	RowPx  float64 // a row's height
	// Reveal counts the times Update moved Top to show the cursor's row:
	// the view scrolls the box there once for each.
	Reveal int
}

// NewModel is the page before anything is read.
func NewModel() Model { return Model{Shown: Shown{Cursor: -1}} }

// Last is the index of the last event read, -1 for none.
func (s Shown) Last() int { return len(s.Pos) - 1 }

// Row is the place in Events of the cursor's event (0 before the first).
func (s Shown) Row() int {
	if s.Cursor < 0 || s.Cursor >= len(s.Pos) {
		return 0
	}
	return s.Pos[s.Cursor]
}

// ReadingAt reports whether the state for the cursor is still being read.
func (s Shown) ReadingAt() bool {
	return s.At == nil || s.Reading.At || s.Reading.AtIndex != s.Cursor
}

// ReadingEvents reports whether more events are to come: kept and not yet
// read, or the first page still on its way (the detail and the state can
// come before it).
func (s Shown) ReadingEvents() bool {
	return s.More || s.Reading.Events && len(s.Events) == 0
}

// Event is the cursor's event, or nil before the first.
func (s Shown) Event() *runs.Event {
	if s.Cursor < 0 || s.Cursor >= len(s.Pos) {
		return nil
	}
	return &s.Events[s.Pos[s.Cursor]]
}
