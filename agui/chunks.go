package agui

import (
	"slices"
	"sort"
)

// Chunk expansion (basic/patterns/streaming, "The chunked form"): a
// TEXT_MESSAGE_CHUNK, TOOL_CALL_CHUNK or REASONING_MESSAGE_CHUNK becomes
// the start, content and end events it stands for, and every rule of
// those applies to what it becomes. Each lane (the parent agent, each
// subagent) has at most one chunk stream open; the consumer ends it when
// the shorthand can no longer continue.

// chunkStream is an item being assembled from chunks.
type chunkStream struct {
	chunk  Type // the chunk type that opened it
	id     string
	owner  string
	role   string // a text message's, "assistant" when the opener gave none
	name   string
	tool   string // a call's toolCallName
	parent string // a call's parentMessageId
}

// lanes holds the open chunk streams, by owner.
type lanes map[string]*chunkStream

// The events a chunk type expands into: start, content, end, and the
// member that names the item.
var expansions = map[Type]struct {
	start, content, end Type
	id                  string
}{
	TextMessageChunk:      {TextMessageStart, TextMessageContent, TextMessageEnd, "messageId"},
	ToolCallChunk:         {ToolCallStart, ToolCallArgs, ToolCallEnd, "toolCallId"},
	ReasoningMessageChunk: {ReasoningMessageStart, ReasoningMessageContent, ReasoningMessageEnd, "messageId"},
}

// expand returns what an event delivers: a chunk's expansion, or the
// event after the ends of the chunk streams it closes.
func (c *Consumer) expand(s *Judgement, e Event) []Event {
	if _, ok := expansions[e.Type]; ok {
		return c.expandChunk(s, e)
	}
	var closed []Event
	switch e.Type {
	case Raw, ActivitySnapshot, ActivityDelta, ReasoningEncryptedValue, SubagentStarted:
		// They stand aside from assembly and close nothing.
	case RunStarted, RunFinished, RunError, MessagesSnapshot:
		owners := make([]string, 0, len(c.lanes))
		for owner := range c.lanes {
			owners = append(owners, owner)
		}
		sort.Strings(owners)
		for _, owner := range owners {
			closed = append(closed, c.closeLane(owner)...)
		}
	case SubagentFinished, SubagentError:
		closed = c.closeLane(e.text("subagentRunId")) // a stream does not outlive its owner
	default:
		closed = c.closeLane(c.lane(&e))
	}
	return append(closed, e)
}

// lane is the lane an event arrives in: its tag, or, untagged, the owner
// of the item it continues or reopens (events/subagents: "an untagged
// continuation continues whatever the opener owns").
func (c *Consumer) lane(e *Event) string {
	if e.has("subagentRunId") {
		return e.owner()
	}
	key, ok := itemOf(e)
	if !ok {
		return ""
	}
	if owner, open := c.open.items[key]; open {
		return owner
	}
	return c.open.owners[key] // "" for a new item: the parent agent's
}

// closeLane ends a lane's chunk stream, if one is open.
func (c *Consumer) closeLane(owner string) []Event {
	open := c.lanes[owner]
	if open == nil {
		return nil
	}
	delete(c.lanes, owner)
	x := expansions[open.chunk]
	return []Event{made(x.end, c.tagged(open, stringMember(x.id, open.id))...)}
}

// tagged adds the stream's owner to the members of an event it makes.
func (c *Consumer) tagged(open *chunkStream, members ...member) []member {
	if open.owner != "" {
		members = append(members, stringMember("subagentRunId", open.owner))
	}
	return members
}

func (c *Consumer) expandChunk(s *Judgement, e Event) []Event {
	x := expansions[e.Type]
	open := c.chunkTarget(s, e)
	if s.Violation != nil {
		return nil
	}
	var closed, out []Event
	first := open == nil
	if first { // it opens an item
		if !c.inRun(s, &e) { // outside a run, the run's rule is the one it breaks
			return nil
		}
		owner := e.owner()
		closed = c.closeLane(owner)
		switch {
		case !e.has(x.id):
			s.fail(FirstChunk, "First %s must have a %s: there is no open stream for it to continue", e.Type, x.id)
			return closed
		case e.Type == ToolCallChunk && !e.has("toolCallName"):
			s.fail(FirstChunk, "First TOOL_CALL_CHUNK must have a toolCallName: call %q is not open", bound(e.text(x.id)))
			return closed
		}
		open = &chunkStream{chunk: e.Type, id: e.text(x.id), owner: owner, role: "assistant",
			name: e.text("name"), tool: e.text("toolCallName"), parent: e.text("parentMessageId")}
		start := []member{stringMember(x.id, open.id)}
		switch e.Type {
		case TextMessageChunk:
			if e.has("role") {
				open.role = e.text("role")
				start = append(start, stringMember("role", open.role))
			}
			if e.has("name") {
				start = append(start, stringMember("name", open.name))
			}
		case ToolCallChunk:
			start = append(start, stringMember("toolCallName", open.tool))
			if e.has("parentMessageId") {
				start = append(start, stringMember("parentMessageId", open.parent))
			}
		case ReasoningMessageChunk:
			start = append(start, stringMember("role", "reasoning"))
		}
		c.lanes[owner] = open
		out = append(out, made(x.start, c.tagged(open, start...)...))
	} else if !c.agrees(s, e, open) {
		return closed
	}
	if e.has("delta") || (!first && e.has("metadata")) { // metadata alone still reaches the item
		members := c.tagged(open, stringMember(x.id, open.id), stringMember("delta", e.text("delta")))
		out = append(out, made(x.content, members...))
	}
	if len(out) > 0 { // the chunk's own metadata and rawEvent ride on what it made
		last := &out[len(out)-1]
		var extra []member
		for _, name := range []string{"metadata", "rawEvent"} {
			if m := e.member(name); m != nil {
				extra = append(extra, *m)
			}
		}
		if len(extra) > 0 {
			*last = made(last.Type, append(membersBut(last.members, "type"), extra...)...)
		}
	}
	return append(closed, out...)
}

// chunkTarget finds the open stream a chunk continues, nil for a chunk
// that opens an item. A continuation's lane is the stream's, which holds
// no other kind; an opening chunk ends its own lane's stream (expandChunk).
func (c *Consumer) chunkTarget(s *Judgement, e Event) *chunkStream {
	x := expansions[e.Type]
	owner := e.owner()
	if e.has(x.id) {
		id := e.text(x.id)
		for _, open := range c.lanes {
			if open.chunk == e.Type && open.id == id && (!e.has("subagentRunId") || open.owner == owner) {
				return open
			}
		}
		return nil
	}
	if e.has("subagentRunId") {
		if open := c.lanes[owner]; open != nil && open.chunk == e.Type {
			return open
		}
		return nil
	}
	// Neither id nor tag: the parent agent's stream, else the only one.
	if open := c.lanes[""]; open != nil && open.chunk == e.Type {
		return open
	}
	var found []*chunkStream
	for _, open := range c.lanes {
		if open.chunk == e.Type {
			found = append(found, open)
		}
	}
	if len(found) > 1 {
		owners := make([]string, len(found))
		for i, f := range found {
			owners[i] = f.owner
		}
		slices.Sort(owners)
		s.fail(ChunkAmbiguous, "%s without an id or a tag continues none of the open streams of subagents %q: it is ambiguous", e.Type, owners)
		return nil
	}
	if len(found) == 1 {
		return found[0]
	}
	return nil
}

// agrees: a continuation may repeat what its opener established, only
// with the same value.
func (c *Consumer) agrees(s *Judgement, e Event, open *chunkStream) bool {
	if e.has("subagentRunId") && e.owner() != open.owner {
		s.fail(Attribution, "%s is attributed to subagent %q, which does not match its opener's %s", e.Type, bound(e.owner()), ownerName(open.owner))
		return false
	}
	check := func(name, established string, set bool) bool {
		if m := e.member(name); m != nil && set && stringOf(m.raw) != established {
			s.fail(ChunkConflict, "%s %s %q does not match the open stream's %s %q", e.Type, name, bound(stringOf(m.raw)), name, bound(established))
			return false
		}
		return true
	}
	switch e.Type {
	case TextMessageChunk:
		return check("role", open.role, true) && check("name", open.name, open.name != "")
	case ToolCallChunk:
		return check("toolCallName", open.tool, true) && check("parentMessageId", open.parent, open.parent != "")
	}
	return true
}
