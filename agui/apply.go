package agui

import (
	"errors"
	"fmt"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Application: what each verified event does to the conversation and the
// state.
func (c *Consumer) apply(s *Judgement, e *Event) {
	err := c.applyEvent(s, e)
	if err == nil {
		return // before the targets below, which errors.As would put on the heap for every event
	}
	var limit limitError
	var stateLimit *LimitError
	switch {
	case errors.As(err, &limit):
		s.fail(Limit, "%v", err)
	case errors.As(err, &stateLimit):
		s.fail(Limit, "%s: %v", e.Type, err)
	default:
		panic(err) // applyEvent returns limits only
	}
}

func (c *Consumer) applyEvent(s *Judgement, e *Event) error {
	conv := &c.conv
	id := e.text("messageId")
	meta := e.raw("metadata")
	switch e.Type {
	case TextMessageStart, ReasoningMessageStart:
		if m := conv.byID[id]; m != nil { // reopened: it continues, as it was
			m.metadata = merge(m.metadata, meta)
			return nil
		}
		role := e.text("role")
		if role == "" {
			role = "assistant" // an absent role means assistant
		}
		return conv.push(&message{id: id, role: role, name: e.text("name"), owner: e.owner(), hasText: true, metadata: merge(nil, meta)})
	case TextMessageContent, ReasoningMessageContent:
		m := conv.byID[id]
		if m == nil { // a MESSAGES_SNAPSHOT dropped it while it streamed: it comes back
			m = &message{id: id, role: "assistant", owner: e.owner()}
			if e.Type == ReasoningMessageContent {
				m.role = "reasoning"
			}
			if err := conv.push(m); err != nil {
				return err
			}
		}
		m.metadata = merge(m.metadata, meta)
		m.hasText = true
		return conv.grow(&m.text, e.text("delta"))
	case TextMessageEnd, ReasoningMessageEnd:
		if m := conv.byID[id]; m != nil {
			m.metadata = merge(m.metadata, meta)
		}
	case ToolCallStart:
		return c.startCall(s, e)
	case ToolCallArgs:
		tc := conv.calls[e.text("toolCallId")]
		if tc == nil { // a MESSAGES_SNAPSHOT dropped its message while it streamed
			if err := c.startCall(s, e); err != nil {
				return err
			}
			tc = conv.calls[e.text("toolCallId")]
		}
		tc.metadata = merge(tc.metadata, meta)
		return conv.grow(&tc.args, e.text("delta"))
	case ToolCallEnd:
		if tc := conv.calls[e.text("toolCallId")]; tc != nil {
			tc.metadata = merge(tc.metadata, meta)
		}
	case ToolCallResult:
		m := readMessage(eventObject(e, "messageId", "toolCallId", "content", "subagentRunId"))
		m.id, m.role, m.metadata = id, "tool", merge(nil, meta)
		if held := conv.byID[id]; held != nil {
			*held = *m // it mints the message of its id
			return nil
		}
		return conv.push(m)
	case ReasoningEncryptedValue:
		c.encrypted(s, e)
	case ActivitySnapshot:
		c.activitySnapshot(s, e)
	case ActivityDelta:
		c.activityDelta(s, e)
	case MessagesSnapshot:
		list, _ := jsonpatch.Decode(e.raw("messages"))
		return conv.reconcile(list.(*jsonpatch.Array).Items())
	case StateSnapshot:
		next, err := c.state.Replace(e.raw("snapshot"))
		return c.stateUpdate(s, e, next, err)
	case StateDelta:
		next, err := c.state.Patch(readOps(e))
		return c.stateUpdate(s, e, next, err)
	}
	return nil
}

// startCall opens a tool call on the assistant message that carries it:
// its parentMessageId, made if the conversation does not hold it yet; a
// message of its own when it names none.
func (c *Consumer) startCall(s *Judgement, e *Event) error {
	conv := &c.conv
	id := e.text("toolCallId")
	if tc := conv.calls[id]; tc != nil { // reopened: further arguments append
		tc.metadata = merge(tc.metadata, e.raw("metadata"))
		return nil
	}
	tc := &call{id: id, name: e.text("toolCallName"), metadata: merge(nil, e.raw("metadata"))}
	parent := e.text("parentMessageId")
	if parent == "" {
		parent = id
	}
	m := conv.byID[parent]
	if m != nil && m.role != "assistant" {
		s.warn(CallParent, "TOOL_CALL_START names message %q as the parent of call %q, but it is a %s message: the call is held in an assistant message of its own", bound(parent), bound(id), m.role)
		m, parent = nil, id
	}
	if m == nil {
		m = &message{id: parent, role: "assistant", owner: e.owner()}
		if err := conv.push(m); err != nil {
			return err
		}
	}
	m.calls = append(m.calls, tc)
	conv.calls[id] = tc
	return nil
}

// encrypted stores an opaque artefact with the message or call it names.
func (c *Consumer) encrypted(s *Judgement, e *Event) {
	entity := e.text("entityId")
	value := sealed{value: e.text("encryptedValue")}
	if e.has("encryptedValueType") {
		value.kind = e.text("encryptedValueType")
	}
	if e.text("subtype") == "tool-call" {
		if tc := c.conv.calls[entity]; tc != nil {
			tc.encrypted = value
			return
		}
	} else if m := c.conv.byID[entity]; m != nil && m.role != "activity" {
		m.encrypted = value
		return
	}
	s.warn(UnknownEntity, "REASONING_ENCRYPTED_VALUE names %s %q, which this consumer does not hold: the value is dropped", e.text("subtype"), bound(entity))
}

func (c *Consumer) activitySnapshot(s *Judgement, e *Event) {
	id := e.text("messageId")
	content, _ := jsonpatch.Decode(e.raw("content"))
	m := c.conv.byID[id]
	switch {
	case m == nil:
		if err := c.conv.push(&message{id: id, role: "activity", kind: e.text("activityType"), content: content.(*jsonpatch.Object),
			owner: e.owner(), metadata: merge(nil, e.raw("metadata"))}); err != nil {
			s.fail(Limit, "%v", err)
		}
		return
	case m.role != "activity":
		s.warn(ActivityTarget, "ACTIVITY_SNAPSHOT names message %q, which is a %s message: skipped", bound(id), m.role)
		return
	}
	m.metadata = merge(m.metadata, e.raw("metadata")) // metadata survives a replacing snapshot
	if string(e.raw("replace")) == "false" {
		return // the message stands as it is
	}
	m.kind, m.content, m.owner = e.text("activityType"), content.(*jsonpatch.Object), e.owner()
}

func (c *Consumer) activityDelta(s *Judgement, e *Event) {
	id := e.text("messageId")
	m := c.conv.byID[id]
	if m == nil || m.role != "activity" {
		s.warn(ActivityTarget, "ACTIVITY_DELTA names message %q, which is not an activity message this consumer holds: skipped", bound(id))
		return
	}
	next, err := jsonpatch.Apply(m.content, readOps(e), MaxTextBytes)
	if err != nil {
		s.warn(PatchFailed, "Failed to apply activity patch to %q: %s; the activity stays as it was", bound(id), describePatchError(err))
		return
	}
	obj, ok := next.(*jsonpatch.Object)
	if !ok {
		s.warn(PatchFailed, "Failed to apply activity patch to %q: the result is not an object; the activity stays as it was", bound(id))
		return
	}
	m.content, m.kind = obj, e.text("activityType")
	m.metadata = merge(m.metadata, e.raw("metadata"))
}

// stateUpdate records what a state event did; a refusal goes by the
// consumer's policy.
func (c *Consumer) stateUpdate(s *Judgement, e *Event, next State, err error) error {
	if err == nil {
		c.state = next
		s.Change = StateChange{Kind: Applied, State: next}
		return nil
	}
	var limit *LimitError
	if errors.As(err, &limit) {
		return err
	}
	s.Change = StateChange{Kind: Refused, State: c.state, Refusal: err}
	what := "state patch"
	if e.Type == StateSnapshot {
		what = "state snapshot"
	}
	reason := describePatchError(err)
	if c.opts.Refusals == Fail {
		s.fail(StateRefused, "%s refused: %s; this consumer fails the run rather than go on with its prior state", what, reason)
		return nil
	}
	s.warn(PatchFailed, "Failed to apply %s: %s; the state stays as it was", what, reason)
	return nil
}

// describePatchError is a patch's failure as warnings say it, operations
// numbered from 1; another error (a State's own refusal) as it is.
func describePatchError(err error) string {
	var e *jsonpatch.Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	return fmt.Sprintf("operation %d (%s %s): %s", e.Index+1, e.Op, bound(e.Path), e.Reason)
}

// readOps reads a checked patch (a delta, or an activity's patch) for
// jsonpatch.Apply, each operation by its index as sent.
func readOps(e *Event) []jsonpatch.Op {
	raw := e.raw("delta")
	if e.Type == ActivityDelta {
		raw = e.raw("patch")
	}
	ops, _ := jsonpatch.DecodeOps(raw) // checked by enforcement
	sent := 0                          // numbered as sent, counting the operations enforcement removed
	for i := range ops {
		for containsInt(e.dropped, sent) {
			sent++
		}
		ops[i].Index = sent
		sent++
	}
	return ops
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// droppedOps are the indices of the operations enforcement removed from a
// patch.
func droppedOps(removals []removal) []int {
	var out []int
	for _, r := range removals {
		var i int
		if _, err := fmt.Sscanf(r.path, "/delta/%d", &i); err == nil {
			out = append(out, i)
		} else if _, err := fmt.Sscanf(r.path, "/patch/%d", &i); err == nil {
			out = append(out, i)
		}
	}
	return out
}

// eventObject is some of an event's members as an object.
func eventObject(e *Event, names ...string) *jsonpatch.Object {
	var ns []string
	var vs []jsonpatch.Value
	for _, name := range names {
		if raw := e.raw(name); raw != nil {
			v, _ := jsonpatch.Decode(raw)
			ns, vs = append(ns, name), append(vs, v)
		}
	}
	return jsonpatch.NewObject(ns, vs)
}
