package agui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Verification: the order of events (events/lifecycle, the streaming
// pattern, reasoning, steps, subagents). It runs after chunk expansion, on
// every event application code will see.

// itemKind is a kind of thing a run opens and must close.
type itemKind uint8

const (
	textMessage itemKind = iota
	toolCall
	reasoningMessage
	reasoningSpan
	step
	invocation
)

var itemNames = [...]string{"text message", "tool call", "reasoning message", "reasoning span", "step", "subagent invocation"}

type itemKey struct {
	kind itemKind
	id   string // a step's id is its owner and name
}

// itemOf is the item a message, call or reasoning event opens or
// continues.
func itemOf(e *Event) (itemKey, bool) {
	switch e.Type {
	case TextMessageStart, TextMessageContent, TextMessageEnd:
		return itemKey{textMessage, e.text("messageId")}, true
	case ToolCallStart, ToolCallArgs, ToolCallEnd:
		return itemKey{toolCall, e.text("toolCallId")}, true
	case ReasoningMessageStart, ReasoningMessageContent, ReasoningMessageEnd:
		return itemKey{reasoningMessage, e.text("messageId")}, true
	case ReasoningStart, ReasoningEnd:
		return itemKey{reasoningSpan, e.text("messageId")}, true
	}
	return itemKey{}, false
}

// openSet is what the current run has open, and who opened each.
type openSet struct {
	items    map[itemKey]string // the owner: the subagent invocation, "" for the parent agent
	finished map[string]bool    // subagent invocations closed in this run
	// owners are the owners of the messages and calls the run opened, open
	// or closed: a reopening keeps its owner (events/text-messages). The
	// first MaxMessages are kept.
	owners map[itemKey]string
}

func newOpenSet() openSet {
	return openSet{items: map[itemKey]string{}, finished: map[string]bool{}, owners: map[itemKey]string{}}
}

// still lists what is open, in a stable order, for a message.
func (o openSet) still() []string {
	var out []string
	for k := range o.items {
		id := k.id
		if k.kind == step {
			id = id[strings.IndexByte(id, 0)+1:]
		}
		out = append(out, fmt.Sprintf("%s %q", itemNames[k.kind], bound(id)))
	}
	slices.Sort(out)
	return out
}

func (c *Consumer) verify(s *Judgement, e *Event) {
	switch e.Type {
	case RunStarted, RunFinished, RunError:
		c.shown = nil // the run may change: judgements from here on show a new copy
	}
	switch e.Type {
	case RunStarted:
		c.runStarted(s, e)
		return
	case RunFinished:
		c.runFinished(s, e)
		return
	case RunError:
		c.runError(s, e)
		return
	}
	if !c.inRun(s, e) {
		return
	}
	id := func(name string) string { return e.text(name) }
	switch e.Type {
	case TextMessageStart:
		c.opens(s, e, textMessage, id("messageId"), Streaming)
	case TextMessageContent, TextMessageEnd:
		c.continues(s, e, textMessage, id("messageId"), Streaming, e.Type == TextMessageEnd)
	case ToolCallStart:
		c.opens(s, e, toolCall, id("toolCallId"), Streaming)
		c.callBelongs(s, e)
	case ToolCallArgs, ToolCallEnd:
		c.continues(s, e, toolCall, id("toolCallId"), Streaming, e.Type == ToolCallEnd)
	case ReasoningStart:
		c.opens(s, e, reasoningSpan, id("messageId"), Reasoning)
	case ReasoningEnd:
		c.continues(s, e, reasoningSpan, id("messageId"), Reasoning, true)
	case ReasoningMessageStart:
		c.opens(s, e, reasoningMessage, id("messageId"), Reasoning)
	case ReasoningMessageContent, ReasoningMessageEnd:
		c.continues(s, e, reasoningMessage, id("messageId"), Reasoning, e.Type == ReasoningMessageEnd)
	case StepStarted, StepFinished:
		c.step(s, e)
	case ActivityDelta:
		c.activityBelongs(s, e)
	case MessagesSnapshot:
		clear(c.open.owners) // it establishes each message's owner afresh (events/state)
	case SubagentStarted:
		c.subagentStarted(s, e)
	case SubagentFinished, SubagentError:
		sub := id("subagentRunId")
		if _, active := c.open.items[itemKey{invocation, sub}]; !active {
			s.fail(SubagentLifecycle, "%s for subagent invocation %q, which is not active (never announced, or already closed)", e.Type, bound(sub))
			return
		}
		delete(c.open.items, itemKey{invocation, sub})
		c.open.finished[sub] = true
	}
}

// inRun: every event but the run's own comes inside an active run.
func (c *Consumer) inRun(s *Judgement, e *Event) bool {
	if len(c.runs) == 0 {
		s.fail(FirstEvent, "the stream begins with %s: it must begin with RUN_STARTED or RUN_ERROR", e.Type)
		return false
	}
	switch last := c.runs[len(c.runs)-1]; last.Phase {
	case Finished:
		s.fail(AfterFinish, "%s after run %q finished: only RUN_STARTED or RUN_ERROR may follow RUN_FINISHED", e.Type, bound(last.RunID))
		return false
	case Errored:
		s.fail(AfterError, "%s after run %q failed: only RUN_STARTED may follow RUN_ERROR", e.Type, bound(last.RunID))
		return false
	}
	return true
}

func (c *Consumer) runStarted(s *Judgement, e *Event) {
	thread, runID := e.text("threadId"), e.text("runId")
	for _, r := range c.runs {
		switch {
		case r.Phase == Active:
			s.fail(NestedRun, "RUN_STARTED of run %q while run %q is still active", bound(runID), bound(r.RunID))
			return
		case r.Requested:
			s.fail(RequestedLast, "RUN_STARTED of run %q after the requested run %q: the requested run is the stream's last", bound(runID), bound(r.RunID))
			return
		case r.RunID == runID && runID != "":
			s.fail(RunIDReused, "RUN_STARTED of run %q, a run id this stream already used", bound(runID))
			return
		}
	}
	if len(c.runs) == MaxRuns {
		s.fail(Limit, "more than %d runs on one stream", MaxRuns)
		return
	}
	if c.thread != "" && thread != c.thread {
		s.fail(ThreadOfRun, "RUN_STARTED names thread %q; this stream is thread %q", bound(thread), bound(c.thread))
		return
	}
	c.thread = thread
	run := Run{ThreadID: thread, RunID: runID, Phase: Active, Requested: c.input.RunID != "" && runID == c.input.RunID}
	if run.ProtocolVersion = e.text("protocolVersion"); run.ProtocolVersion != "" {
		switch v, ok := ParseVersion(run.ProtocolVersion); {
		case !ok:
			s.warn(UninterpretableVersion, "cannot interpret the producer's protocolVersion %q: proceeding as with a newer producer, under %s's processing model", bound(run.ProtocolVersion), c.speak)
		case c.speak.Before(v):
			s.warn(NewerVersion, "the producer declares protocolVersion %s, newer than this consumer's %s: proceeding under %s's processing model", v, c.speak, c.speak)
		}
	}
	c.runs = append(c.runs, run)
	c.open = newOpenSet() // a new run starts with nothing open
}

func (c *Consumer) runFinished(s *Judgement, e *Event) {
	if !c.inRun(s, e) {
		return
	}
	run := &c.runs[len(c.runs)-1]
	if thread := e.text("threadId"); thread != run.ThreadID {
		s.fail(ThreadOfRun, "RUN_FINISHED names thread %q; run %q is on thread %q", bound(thread), bound(run.RunID), bound(run.ThreadID))
		return
	}
	if id := e.text("runId"); id != run.RunID {
		s.fail(RunIDsAgree, "RUN_FINISHED names run %q; the active run is %q", bound(id), bound(run.RunID))
		return
	}
	if open := c.open.still(); len(open) > 0 {
		s.fail(OpenAtFinish, "RUN_FINISHED while these are still open: %s", strings.Join(open, ", "))
		return
	}
	outcome := readOutcome(e.raw("outcome"))
	if id := duplicateInterrupt(outcome.Interrupts); id != "" {
		s.fail(InterruptIDs, "RUN_FINISHED of run %q raises interrupt %q twice: a resume answers by id", bound(run.RunID), bound(id))
		return
	}
	run.Phase, run.Outcome = Finished, outcome
	c.unansweredCalls(s, *run)
}

// readOutcome reads a checked outcome; absent, or stripped as
// unrecognised, it is success.
func readOutcome(raw []byte) Outcome {
	out := Outcome{Kind: OutcomeSuccess}
	if raw == nil {
		return out
	}
	v, _ := jsonpatch.Decode(raw)
	o := v.(*jsonpatch.Object)
	kind, _ := o.Get("type")
	out.Kind = OutcomeKind(kind.(string))
	if list, ok := o.Get("interrupts"); ok {
		for _, item := range list.(*jsonpatch.Array).Items() {
			out.Interrupts = append(out.Interrupts, readInterrupt(item.(*jsonpatch.Object)))
		}
	}
	if list, ok := o.Get("pendingToolCallIds"); ok {
		for _, id := range list.(*jsonpatch.Array).Items() {
			out.PendingToolCallIDs = append(out.PendingToolCallIDs, id.(string))
		}
	}
	return out
}

// unansweredCalls warns when a run that continues an interrupted one
// ends without a result for a tool call an interrupt it answers concerns
// (events/tool-calls: a dangling call is one "many models reject
// outright"; 1.x does not require the result in this run). Only a call
// the answer lets run owes a result (Answer.Declines).
func (c *Consumer) unansweredCalls(s *Judgement, run Run) {
	if !run.Requested || run.Outcome.Kind != OutcomeSuccess {
		return
	}
	asked := make(map[string]Interrupt, len(c.opts.Continues.Interrupts))
	for _, i := range c.opts.Continues.Interrupts {
		asked[i.ID] = i
	}
	answered := c.conv.answered()
	for _, a := range c.input.Answers() {
		i := asked[a.InterruptID]
		if i.ToolCallID == "" || a.Declines(i) || answered[i.ToolCallID] || slices.Contains(run.Outcome.PendingToolCallIDs, i.ToolCallID) {
			continue
		}
		s.warn(ResumeUnanswered, "run %q resumed interrupt %q (%s) and finished without a TOOL_CALL_RESULT for its tool call %q",
			bound(run.RunID), bound(i.ID), a.Status, bound(i.ToolCallID))
	}
}

func (c *Consumer) runError(s *Judgement, e *Event) {
	report := &ErrorReport{Message: e.text("message"), Code: e.text("code")}
	if len(c.runs) == 0 { // a run can fail before it begins
		c.runs = append(c.runs, Run{Phase: Errored, Error: report})
		return
	}
	run := &c.runs[len(c.runs)-1]
	switch run.Phase {
	case Errored:
		s.fail(AfterError, "RUN_ERROR after run %q failed: only RUN_STARTED may follow RUN_ERROR", bound(run.RunID))
		return
	case Finished:
		report.Late = true // a failure that surfaced after the run reported success
	}
	run.Phase, run.Error = Errored, report
	c.open = newOpenSet() // whatever was open is abandoned with the run
}

// opens opens an item; it must not be open already.
func (c *Consumer) opens(s *Judgement, e *Event, kind itemKind, id string, rule Rule) {
	key := itemKey{kind, id}
	if owner, open := c.open.items[key]; open {
		s.fail(rule, "%s opens %s %q, which is already open%s", e.Type, itemNames[kind], bound(id), ownedBy(owner))
		return
	}
	owner := e.owner()
	was, reopened := c.open.owners[key]
	if reopened && e.has("subagentRunId") && owner != was {
		s.fail(Attribution, "%s of %s %q is attributed to subagent %q, which does not match its opener's %s",
			e.Type, itemNames[kind], bound(id), bound(owner), ownerName(was))
		return
	}
	if len(c.open.items) == MaxOpen {
		s.fail(Limit, "more than %d messages, calls, spans, steps and subagents open at once", MaxOpen)
		return
	}
	switch {
	case reopened:
		owner = was // an untagged reopening continues its opener's
	case (kind == textMessage || kind == toolCall || kind == reasoningMessage) && len(c.open.owners) < MaxMessages:
		c.open.owners[key] = owner
	}
	c.open.items[key] = owner
}

// continues extends or closes an open item, whose owner a tag must match.
func (c *Consumer) continues(s *Judgement, e *Event, kind itemKind, id string, rule Rule, closes bool) {
	key := itemKey{kind, id}
	owner, open := c.open.items[key]
	if !open {
		s.fail(rule, "%s names %s %q, which is not open", e.Type, itemNames[kind], bound(id))
		return
	}
	if e.has("subagentRunId") && e.owner() != owner {
		s.fail(Attribution, "%s of %s %q is attributed to subagent %q, which does not match its opener's %s",
			e.Type, itemNames[kind], bound(id), bound(e.owner()), ownerName(owner))
		return
	}
	if closes {
		delete(c.open.items, key)
	}
}

// callBelongs: a tool call tagged with a subagent belongs to the message
// that carries it, and so to that message's owner.
func (c *Consumer) callBelongs(s *Judgement, e *Event) {
	parent := e.text("parentMessageId")
	if parent == "" || !e.has("subagentRunId") {
		return
	}
	if m := c.conv.byID[parent]; m != nil && m.owner != e.owner() {
		s.fail(Attribution, "TOOL_CALL_START attributes call %q to subagent %q, which does not match the %s of its message %q",
			bound(e.text("toolCallId")), bound(e.owner()), ownerName(m.owner), bound(parent))
	}
}

// activityBelongs: a delta continues the activity message its snapshot
// opened, and a tag must match that owner (events/subagents). A delta
// naming no activity message is apply's to skip.
func (c *Consumer) activityBelongs(s *Judgement, e *Event) {
	id := e.text("messageId")
	if m := c.conv.byID[id]; m != nil && m.role == "activity" && e.has("subagentRunId") && e.owner() != m.owner {
		s.fail(Attribution, "ACTIVITY_DELTA of activity message %q is attributed to subagent %q, which does not match its opener's %s",
			bound(id), bound(e.owner()), ownerName(m.owner))
	}
}

// step: steps are per owner, matched by name.
func (c *Consumer) step(s *Judgement, e *Event) {
	name := e.text("stepName")
	key := itemKey{step, e.owner() + "\x00" + name}
	_, open := c.open.items[key]
	switch {
	case e.Type == StepStarted && open:
		s.fail(Steps, "STEP_STARTED for step %q, which is already open%s", bound(name), ownedBy(e.owner()))
	case e.Type == StepStarted && len(c.open.items) == MaxOpen:
		s.fail(Limit, "more than %d messages, calls, spans, steps and subagents open at once", MaxOpen)
	case e.Type == StepStarted:
		c.open.items[key] = e.owner()
	case !open:
		s.fail(Steps, "STEP_FINISHED for step %q that was not started%s", bound(name), ownedBy(e.owner()))
	default:
		delete(c.open.items, key)
	}
}

func (c *Consumer) subagentStarted(s *Judgement, e *Event) {
	id, parent := e.text("subagentRunId"), e.text("parentSubagentRunId")
	if c.open.finished[id] {
		s.fail(SubagentLifecycle, "SUBAGENT_STARTED reuses invocation %q, which already finished in this run", bound(id))
		return
	}
	if _, active := c.open.items[itemKey{invocation, parent}]; parent != "" && !active && !c.open.finished[parent] {
		s.fail(SubagentLifecycle, "SUBAGENT_STARTED names parent invocation %q, which was not announced in this run", bound(parent))
		return
	}
	if len(c.open.finished) == MaxMessages {
		s.fail(Limit, "more than %d subagent invocations in one run", MaxMessages)
		return
	}
	c.opens(s, e, invocation, id, SubagentLifecycle)
}

func ownedBy(owner string) string {
	if owner == "" {
		return ""
	}
	return fmt.Sprintf(" (in subagent %q)", bound(owner))
}

func ownerName(owner string) string {
	if owner == "" {
		return "parent agent"
	}
	return fmt.Sprintf("subagent %q", bound(owner))
}
