// Package runs holds what the inspector's page reads of the runs, as the
// store serves them (package inspect): plain data, JSON both ways, small
// enough for the page's wasm to carry.
package runs

import (
	"encoding/json"
	"time"
)

// Run is one run, as the inspector lists it.
type Run struct {
	ID       string    `json:"id"`     // the order runs came in: "1", "2", …
	Source   string    `json:"source"` // "live", or the file it was read from
	Name     string    `json:"name"`   // "thread t1 run r1", or the file's script name
	ThreadID string    `json:"threadId,omitempty"`
	RunID    string    `json:"runId,omitempty"`
	Started  time.Time `json:"started"`
	Status   Status    `json:"status"`
	// Rule is the first rule broken, for a failed run.
	Rule     string `json:"rule,omitempty"`
	Events   int    `json:"events"`
	Warnings int    `json:"warnings"`
	// Ending says how the run ended when that is no plain success or
	// failure: what it waits for, how the client cancelled it, the agent's
	// error.
	Ending string `json:"ending,omitempty"`
	// Resumes is the run (its ID) this one answers the interrupts of;
	// ResumedBy the run that answered this one's.
	Resumes   string `json:"resumes,omitempty"`
	ResumedBy string `json:"resumedBy,omitempty"`
}

// Status is where a run stands.
type Status string

const (
	Running     Status = "running"
	OK          Status = "ok"
	Warned      Status = "warned"      // legal, with warnings
	Failed      Status = "failed"      // a rule broken: Run.Rule
	Interrupted Status = "interrupted" // it waits for an answer
	Cancelled   Status = "cancelled"   // its client cancelled it, as a user pressing Stop does
	Errored     Status = "errored"     // the agent's own RUN_ERROR
)

// Detail is a run with what its page shows besides its events.
type Detail struct {
	Run
	Input     string     `json:"input,omitempty"`   // the RunAgentInput sent, as sent (JSON, or what was sent instead)
	Headers   []string   `json:"headers,omitempty"` // the request's header names; never their values
	Method    string     `json:"method,omitempty"`
	Path      string     `json:"path,omitempty"`
	URL       string     `json:"url,omitempty"` // where a live run went, its secrets left out
	Transport *Transport `json:"transport,omitempty"`
	Failures  []Failure  `json:"failures,omitempty"`
	Notes     []string   `json:"notes,omitempty"`
	// Truncated says the inspector kept the run's first events only.
	Truncated bool `json:"truncated,omitempty"`
	// Questions are the interrupts the run ended waiting on; Replies the
	// answers its input carried, when it resumes a run.
	Questions []Question `json:"questions,omitempty"`
	Replies   []Reply    `json:"replies,omitempty"`
}

// Question is an interrupt: what a run asks before it goes on.
type Question struct {
	ID         string          `json:"id"`
	Reason     string          `json:"reason"`
	Message    string          `json:"message,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	Schema     json.RawMessage `json:"responseSchema,omitempty"`
}

// Reply is one answer of a resume list.
type Reply struct {
	InterruptID string          `json:"interruptId"`
	Status      string          `json:"status"`
	Payload     json.RawMessage `json:"payload,omitempty"`
}

// At is a run as it stood after one of its events: what stepping through
// it shows.
type At struct {
	Index int `json:"i"` // the event; -1: before the first, the input's state
	// State is the state after it, as JSON.
	State json.RawMessage `json:"state"`
	// Changed are the places the event changed, as JSON Pointers ("" the
	// whole state), at most MaxChanged of them; none when it changed
	// nothing.
	Changed []string `json:"changed,omitempty"`
	// Refused is why the event's state update did not apply, when it did
	// not: the state is as it was.
	Refused string `json:"refused,omitempty"`
	// Messages are the conversation after it, each message as the
	// protocol writes it.
	Messages json.RawMessage `json:"messages"`
}

// Update is one change the store tells its subscribers of.
type Update struct {
	Kind  string `json:"kind"`            // "run": a run is new or changed; "event": a run has a new event; "gone": a run was let go; "resync": updates were lost, read everything again
	ID    string `json:"id,omitempty"`    // the run, for "event" and "gone"
	Run   *Run   `json:"run,omitempty"`   // for "run" and "event"
	Event *Event `json:"event,omitempty"` // for "event": all but its JSON and comment, which the run's events hold
}

// Transport is what a live run's answer measured.
type Transport struct {
	Status      int     `json:"status"`
	ContentType string  `json:"contentType,omitempty"`
	Bytes       int64   `json:"bytes"`
	AnsweredMs  float64 `json:"answeredMs"`
	LongestGap  float64 `json:"longestGapMs"`
	TookMs      float64 `json:"tookMs"`
}

// Event is one event of a run, or an SSE comment.
type Event struct {
	Index   int     `json:"i"`              // its place among the run's events, from 0; -1 for a comment
	AtMs    float64 `json:"atMs"`           // since the request; 0 when not known (a capture)
	Type    string  `json:"type,omitempty"` // as declared
	Size    int     `json:"size"`           // its JSON's bytes
	JSON    string  `json:"json,omitempty"` // the event as it came (JSON, or not: a stream may send anything); "" for a comment
	Comment string  `json:"comment,omitempty"`
	Marks   []Mark  `json:"marks,omitempty"`
}

// Mark is a rule the engine judged at an event: a warning, or the
// violation that rejected the stream there.
type Mark struct {
	Rule    string `json:"rule"`
	Fatal   bool   `json:"fatal"`
	Text    string `json:"text"`
	Meaning string `json:"meaning"` // the rule in plain words
	Page    string `json:"page"`    // its spec page
}

// Failure is a rule a run broke, as check reports it: where, why, and
// the rule's page.
type Failure struct {
	Rule  string `json:"rule"`
	Event int    `json:"event,omitempty"` // from 1; 0 for the run as a whole
	Field string `json:"field,omitempty"`
	Text  string `json:"text"`
	Page  string `json:"page,omitempty"`
}

// MaxChanged bounds what At says an event changed: past it, the page
// highlights the first ones.
const MaxChanged = 500
