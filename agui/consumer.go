package agui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Options choose what the protocol leaves to the consumer. The zero
// Options holds any JSON state, warns about a state update it cannot
// apply, and speaks Current.
type Options struct {
	// State is the application's State, loaded with the input's state
	// (State.Replace); nil holds any JSON value (JSONState).
	State State
	// Refusals is what a state update the State refuses does: a patch
	// that cannot apply, a snapshot a typed state will not hold. The
	// protocol lets a consumer keep the state it had (Warn, the default,
	// and what the conformance corpus expects) or fail the run (Fail).
	Refusals Policy
	// Peer is the version of a producer known to be older ("0.0.57"), for
	// the downgrades the spec permits; "" for a current one.
	Peer string
	// Continues is the interrupted run the input resumes, when it does: a
	// resumed run that finishes without a result for the tool call one of
	// its interrupts concerned gets a warning (ResumeUnanswered).
	Continues Pending
	// Speak is the version producers' declarations are judged against:
	// Current when zero, or V1_0.
	Speak Version
}

// Policy is what a state update the State refuses does
// (Options.Refusals).
type Policy int

const (
	Warn Policy = iota // warn (PatchFailed), keep the state as it was, go on
	Fail               // reject the stream (StateRefused)
)

// Judgement is the engine's judgement of one event (Consumer.Feed): what
// it delivered, warned about and did to the state, and whether it broke a
// rule.
type Judgement struct {
	Index     int     // the event's place in the stream, from 0
	Type      Type    // the type it declared ("" if it declared none)
	Events    []Event // what application code receives: none when dropped; several when a chunk expands or closes
	Warnings  []Warning
	Violation *Violation  // the stream broke a rule here: nothing more is accepted
	Run       *Run        // the run it belongs to, as it stands after it (shared by the judgements it does not change: read it, do not write it)
	Change    StateChange // what it did to the state
}

// StateChange is what an event did to the state.
type StateChange struct {
	Kind    ChangeKind
	State   State // the state after the event
	Refusal error // why a refused update was refused: a *jsonpatch.Error, or the State's own reason
}

// ChangeKind says whether a state event changed the state.
type ChangeKind int

const (
	NoChange ChangeKind = iota // not a state event
	Applied                    // the snapshot replaced the state, or the delta applied
	Refused                    // the state stays as it was (Warn), or the stream is rejected (Fail)
)

// Run is one run of the stream (events/lifecycle).
type Run struct {
	ThreadID        string
	RunID           string // "" for a run that failed before it began (RUN_ERROR first)
	Requested       bool   // the run the input asked for: it echoes the input's runId
	ProtocolVersion string // what its RUN_STARTED declared
	Phase           Phase
	Outcome         Outcome      // how it finished (Finished)
	Error           *ErrorReport // why it failed (Errored)
}

// Phase is where a run is.
type Phase int

const (
	Active   Phase = iota + 1 // RUN_STARTED, and no terminal event yet
	Finished                  // RUN_FINISHED: closed, by its outcome
	Errored                   // RUN_ERROR: failed, by the agent's own report
)

// Outcome is how a finished run ended (RUN_FINISHED.outcome).
type Outcome struct {
	Kind               OutcomeKind
	Interrupts         []Interrupt // what an interrupted run waits for
	PendingToolCallIDs []string    // tool calls a successful run left unanswered, when it names them
}

// OutcomeKind is how a run finished; an absent or unrecognised outcome
// is success.
type OutcomeKind string

const (
	OutcomeSuccess   OutcomeKind = "success"
	OutcomeInterrupt OutcomeKind = "interrupt"
	OutcomeCancelled OutcomeKind = "cancelled"
)

// ErrorReport is the agent's own report that its run failed.
type ErrorReport struct {
	Message, Code string
	Late          bool // it came after the run's RUN_FINISHED
}

// Consumer judges one stream, event by event, and holds what it built:
// the runs, the conversation and the state. NewConsumer makes one.
type Consumer struct {
	opts     Options
	input    Input
	peer     Version
	oldPeer  bool
	speak    Version
	next     int // the next event's index
	rejected *Violation
	ended    bool

	runs   []Run
	shown  *Run // the copy of the last run judgements show, until it changes
	thread string
	open   openSet
	lanes  lanes
	conv   conversation
	state  State
	think  thinking

	warnings []Warning
	dropped  int      // warnings past MaxWarnings
	unknown  *Warning // the first event of an unknown type dropped, which may explain a truncation
}

// NewConsumer starts judging the stream that answers in. The zero Input
// stands for a request the caller did not make: any thread and run id are
// accepted. It fails when opts.Peer is not a version, or the input's
// state or messages cannot be held.
func NewConsumer(in Input, opts Options) (*Consumer, error) {
	c := &Consumer{opts: opts, input: in, thread: in.ThreadID, speak: opts.Speak}
	if c.speak == 0 {
		c.speak = Current
	}
	if opts.Peer != "" {
		v, ok := ParseVersion(opts.Peer)
		if !ok {
			return nil, fmt.Errorf("peer version %q is not MAJOR.MINOR[.PATCH]", opts.Peer)
		}
		c.peer, c.oldPeer = v, v.Before(Current)
	}
	base := opts.State
	if base == nil {
		base = NewJSONState()
	}
	state, err := base.Replace(in.State())
	if err != nil {
		return nil, fmt.Errorf("the input's state: %v", err)
	}
	c.state = state
	c.open, c.lanes, c.conv = newOpenSet(), lanes{}, newConversation()
	for _, m := range in.messages() {
		if err := c.conv.add(m.(*jsonpatch.Object)); err != nil {
			return nil, fmt.Errorf("the input's messages: %v", err)
		}
	}
	return c, nil
}

// Feed judges the next event, given as its JSON (one SSE data payload).
// Once a Judgement has a Violation, every later one repeats it and
// delivers nothing.
func (c *Consumer) Feed(data []byte) Judgement {
	s := Judgement{Index: c.next, Change: StateChange{State: c.state}}
	c.next++
	if c.rejected != nil {
		s.Violation = c.rejected
		return s
	}
	c.feed(&s, data)
	if s.Violation != nil {
		c.rejected = s.Violation
	}
	s.Run = c.lastRun()
	c.keep(s.Warnings)
	return s
}

// lastRun is a copy of the last run, as it stands, or nil: one copy for
// every judgement until the run changes (verify), rather than one each.
func (c *Consumer) lastRun() *Run {
	if len(c.runs) == 0 {
		return nil
	}
	if c.shown == nil {
		run := c.runs[len(c.runs)-1]
		c.shown = &run
	}
	return c.shown
}

// fail records the rule the event broke.
func (s *Judgement) fail(rule Rule, format string, args ...any) {
	s.Violation = &Violation{Index: s.Index, Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

func (s *Judgement) warn(rule Rule, format string, args ...any) {
	s.Warnings = append(s.Warnings, Warning{Index: s.Index, Rule: rule, Text: fmt.Sprintf(format, args...)})
}

// feed takes an event through the stages basic/processing orders, after
// reading it (read.go):
//
//	compatibility boundary → enforcement → chunk expansion → verification → application
//
// (compat.go, check.go, chunks.go, verify.go, and apply.go with
// conversation.go and the state).
func (c *Consumer) feed(s *Judgement, data []byte) {
	t, members, rule, err := read(data)
	if err != nil {
		s.fail(rule, "%v", err)
		return
	}
	s.Type = t
	ev, ok := c.boundary(s, t, members, data)
	if !ok {
		return
	}
	ev, ok = c.enforce(s, ev)
	if !ok {
		return
	}
	events := c.expand(s, ev)
	if s.Violation != nil {
		return
	}
	for i := range events {
		c.verify(s, &events[i])
		if s.Violation != nil {
			return
		}
		c.apply(s, &events[i])
		if s.Violation != nil {
			return
		}
		s.Events = events[:i+1] // delivered: those before a violation
	}
}

// boundary is the compatibility boundary: retired shapes translated,
// downgrades for an older peer. ok is false when the event goes no
// further.
func (c *Consumer) boundary(s *Judgement, t Type, members []member, data []byte) (Event, bool) {
	if _, ok := retired[t]; ok {
		data, text := c.think.translate(t, members)
		s.warn(RetiredShape, "%s", text)
		t = retired[t]
		members, _ = readTop(data)
		return Event{Type: t, JSON: data, members: members}, true
	}
	if c.oldPeer && c.peer.Before(subagentsFrom) {
		switch t {
		case SubagentStarted, SubagentFinished, SubagentError:
			s.warn(LossyDowngrade, "dropping %s: the peer speaks %s, from before subagents; upgrade it to 1.0 to see them", t, c.peer)
			return Event{}, false
		}
		if index(members, "subagentRunId") >= 0 { // lossless: the work flattens into one thread
			data = encodeEvent(t, membersBut(members, "type", "subagentRunId"))
			members, _ = readTop(data)
		}
	}
	return Event{Type: t, JSON: data, members: members}, true
}

func index(members []member, name string) int {
	for i, m := range members {
		if m.name == name {
			return i
		}
	}
	return -1
}

// membersBut is members less those of the given names.
func membersBut(members []member, names ...string) []member {
	var out []member
	for _, m := range members {
		if !slices.Contains(names, m.name) {
			out = append(out, m)
		}
	}
	return out
}

// enforce checks the event against the schema (check.go): fatal when a
// described value is wrong; unrecognised material removed, with a warning.
func (c *Consumer) enforce(s *Judgement, ev Event) (Event, bool) {
	d, known := eventDefs[ev.Type]
	if !known {
		text := fmt.Sprintf("dropped an event of unknown type %s: AG-UI does not describe it", bound(string(ev.Type)))
		if near := ev.Type.Nearest(); near != "" {
			text += fmt.Sprintf(" (a misspelt %s?)", near)
		}
		s.warn(UnknownEvent, "%s", text)
		if c.unknown == nil {
			c.unknown = &Warning{Index: s.Index, Rule: UnknownEvent, Text: text}
		}
		return ev, false
	}
	var ch checker
	gone, err := ch.object(ev.members, d, "")
	if err != nil {
		s.fail(Malformed, "%s: %v", ev.Type, err)
		return ev, false
	}
	if gone != "" {
		s.warn(UnknownMember, "dropped a %s event: %s", ev.Type, gone)
		return ev, false
	}
	for _, r := range ch.removals {
		rule := UnknownMember
		if strings.Contains(r.reason, "patch operation") {
			rule = UnknownOp
		}
		s.warn(rule, "removed %s from %s: %s", r.path, ev.Type, r.reason)
	}
	if len(ch.removals) == 0 {
		return ev, true
	}
	out := newEvent(ev.Type, without(ev.JSON, ch.removals))
	if ev.Type == StateDelta || ev.Type == ActivityDelta {
		out.dropped = droppedOps(ch.removals)
	}
	return out, true
}

// keep adds warnings to the stream's, up to MaxWarnings.
func (c *Consumer) keep(ws []Warning) {
	for _, w := range ws {
		if len(c.warnings) < MaxWarnings {
			c.warnings = append(c.warnings, w)
		} else {
			c.dropped++
		}
	}
}

// End is the end of the stream. A run still active, or a requested run
// that never came, is a truncated run: never a success
// (basic/transports, "Truncation"). It returns why the stream is
// truncated, or "" (for a stream already rejected too).
func (c *Consumer) End() string {
	c.ended = true
	switch {
	case c.rejected != nil:
		return ""
	case len(c.runs) == 0:
		return "the stream ended before any run"
	case c.runs[len(c.runs)-1].Phase == Active:
		return fmt.Sprintf("the stream ended while run %q was active, with no terminal event", bound(c.runs[len(c.runs)-1].RunID)) + c.cause()
	case c.input.RunID != "" && !c.requestedSeen() && c.runs[len(c.runs)-1].RunID != "":
		// (A run that failed before it began, RUN_ERROR first, ended.)
		return fmt.Sprintf("the stream ended without the requested run %q", bound(c.input.RunID)) + c.cause()
	}
	return ""
}

// cause names the dropped event of an unknown type that may be the
// terminal event a truncated stream lacks, misspelt: otherwise the
// truncation would be all a report says.
func (c *Consumer) cause() string {
	if c.unknown == nil {
		return ""
	}
	return fmt.Sprintf("; event %d was %s", c.unknown.Index+1, strings.TrimPrefix(c.unknown.Text, "dropped an event of unknown type "))
}

// Nearest is the event type an unknown t is likely a misspelling of: one
// at most two edits away, case aside (RUN_FINSHED, run_finished); "" when
// none is, or t is known.
func (t Type) Nearest() Type {
	if t.Known() {
		return ""
	}
	if len(t) > 40 {
		return ""
	}
	best, bestDist := Type(""), 3
	for known := range eventDefs {
		if d := editDistance(strings.ToUpper(string(t)), string(known)); d < bestDist || (d == bestDist && known < best) {
			best, bestDist = known, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func (c *Consumer) requestedSeen() bool {
	for _, r := range c.runs {
		if r.Requested {
			return true
		}
	}
	return false
}

// Runs are the stream's runs so far, in order.
func (c *Consumer) Runs() []Run { return append([]Run(nil), c.runs...) }

// State is the state now.
func (c *Consumer) State() State { return c.state }

// Warnings are the stream's warnings so far (the first MaxWarnings), and
// how many more there were.
func (c *Consumer) Warnings() ([]Warning, int) {
	return append([]Warning(nil), c.warnings...), c.dropped
}

// Rejected is the violation the stream was rejected for, if it was.
func (c *Consumer) Rejected() *Violation { return c.rejected }
