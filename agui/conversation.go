package agui

import (
	"fmt"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// The conversation (events/state, text-messages, tool-calls, reasoning,
// activity): messages assembled from the stream, in order, reconciled by
// MESSAGES_SNAPSHOT. Metadata merges into what each event builds
// (basic/metadata).

// message is one message of the conversation.
type message struct {
	id, role, name, owner string
	text                  []byte          // the content as text (developer, system, assistant, user, tool, reasoning)
	hasText               bool            // an assistant message made for a tool call has none
	parts                 jsonpatch.Value // a user or tool message's content given as parts
	calls                 []*call         // an assistant message's tool calls
	toolCallID            string          // a tool message's
	errText               jsonpatch.Value // a tool message's error, when it has one
	kind                  string          // an activity message's activityType
	content               *jsonpatch.Object
	encrypted             sealed // an opaque artefact to return unchanged
	metadata              *jsonpatch.Object
}

// sealed is an encrypted value and the producer's name for its kind
// (encryptedValueType, 1.1): stored and returned together, never read.
type sealed struct{ value, kind jsonpatch.Value }

// sealedIn reads a sealed value from an object's members.
func sealedIn(o *jsonpatch.Object) sealed {
	v, _ := o.Get("encryptedValue")
	k, _ := o.Get("encryptedValueType")
	return sealed{v, k}
}

// put adds a sealed value's members, when there is one.
func (s sealed) put(add func(string, jsonpatch.Value)) {
	if s.value != nil {
		add("encryptedValue", s.value)
	}
	if s.kind != nil {
		add("encryptedValueType", s.kind)
	}
}

// call is one tool call, kept on the assistant message that made it.
type call struct {
	id, name  string
	args      []byte
	encrypted sealed
	metadata  *jsonpatch.Object
}

type conversation struct {
	messages []*message
	byID     map[string]*message
	calls    map[string]*call
	held     int // bytes of text and arguments held
}

func newConversation() conversation {
	return conversation{byID: map[string]*message{}, calls: map[string]*call{}}
}

// answered is the tool calls the conversation's tool messages answer.
func (c *conversation) answered() map[string]bool {
	out := map[string]bool{}
	for _, m := range c.messages {
		if m.role == "tool" {
			out[m.toolCallID] = true
		}
	}
	return out
}

// limitError is a bound of limits.go the stream crossed.
type limitError string

func (e limitError) Error() string { return string(e) }

// push appends a message the conversation has not seen.
func (c *conversation) push(m *message) error {
	if len(c.messages) == MaxMessages {
		return limitError(fmt.Sprintf("more than %d messages in the conversation", MaxMessages))
	}
	c.messages = append(c.messages, m)
	c.index(m)
	return nil
}

func (c *conversation) index(m *message) {
	c.byID[m.id] = m
	for _, tc := range m.calls {
		c.calls[tc.id] = tc
	}
}

// grow appends text to a message's content or a call's arguments.
func (c *conversation) grow(b *[]byte, delta string) error {
	switch {
	case len(*b)+len(delta) > MaxTextBytes:
		return limitError(fmt.Sprintf("a message's text or a call's arguments passed %d KiB", MaxTextBytes>>10))
	case c.held+len(delta) > MaxHeldBytes:
		return limitError(fmt.Sprintf("the conversation passed %d MiB of text", MaxHeldBytes>>20))
	}
	*b = append(*b, delta...)
	c.held += len(delta)
	return nil
}

// add records a whole message, as the input or a MESSAGES_SNAPSHOT
// gives it (checked already).
func (c *conversation) add(o *jsonpatch.Object) error {
	return c.push(readMessage(o))
}

func readMessage(o *jsonpatch.Object) *message {
	get := func(name string) jsonpatch.Value { v, _ := o.Get(name); return v }
	text := func(name string) string { s, _ := get(name).(string); return s }
	m := &message{id: text("id"), role: text("role"), name: text("name"), owner: text("subagentRunId"),
		toolCallID: text("toolCallId"), errText: get("error"), kind: text("activityType"), encrypted: sealedIn(o)}
	m.metadata, _ = get("metadata").(*jsonpatch.Object)
	m.content, _ = get("content").(*jsonpatch.Object)
	switch content := get("content").(type) {
	case string:
		m.text, m.hasText = []byte(content), true
	case *jsonpatch.Array:
		m.parts = content
	}
	if list, ok := get("toolCalls").(*jsonpatch.Array); ok {
		for _, item := range list.Items() {
			tc := item.(*jsonpatch.Object)
			fn, _ := tc.Get("function")
			name, _ := fn.(*jsonpatch.Object).Get("name")
			args, _ := fn.(*jsonpatch.Object).Get("arguments")
			id, _ := tc.Get("id")
			metadata, _ := tc.Get("metadata")
			md, _ := metadata.(*jsonpatch.Object)
			m.calls = append(m.calls, &call{id: id.(string), name: name.(string), args: []byte(args.(string)), encrypted: sealedIn(tc), metadata: md})
		}
	}
	return m
}

// reconcile applies a MESSAGES_SNAPSHOT: each message it carries replaces
// the one of its id in place, or is appended; a message it omits is
// dropped, but for activity and reasoning messages unless the snapshot
// carries some of that role.
func (c *conversation) reconcile(list []jsonpatch.Value) error {
	restated := map[string]*message{}
	carries := map[string]bool{}
	var fresh []*message
	for _, v := range list {
		m := readMessage(v.(*jsonpatch.Object))
		carries[m.role] = true
		if _, held := c.byID[m.id]; held {
			restated[m.id] = m
		} else {
			fresh = append(fresh, m)
		}
	}
	var kept []*message
	for _, m := range c.messages {
		switch {
		case restated[m.id] != nil:
			kept = append(kept, restated[m.id])
		case (m.role == "activity" || m.role == "reasoning") && !carries[m.role]:
			kept = append(kept, m) // client-only material the producer cannot know about
		}
	}
	*c = newConversation()
	for _, m := range append(kept, fresh...) {
		if err := c.push(m); err != nil {
			return err
		}
		c.held += len(m.text)
		for _, tc := range m.calls {
			c.held += len(tc.args)
		}
	}
	return nil
}

// value is a message as 1.0 writes it.
func (m *message) value() *jsonpatch.Object {
	var names []string
	var values []jsonpatch.Value
	add := func(name string, v jsonpatch.Value) { names, values = append(names, name), append(values, v) }
	add("id", m.id)
	add("role", m.role)
	if m.name != "" {
		add("name", m.name)
	}
	switch {
	case m.role == "activity":
		add("activityType", m.kind)
		add("content", m.content)
	case m.parts != nil:
		add("content", m.parts)
	case m.hasText:
		add("content", string(m.text))
	}
	if len(m.calls) > 0 {
		calls := make([]jsonpatch.Value, len(m.calls))
		for i, tc := range m.calls {
			calls[i] = tc.value()
		}
		add("toolCalls", jsonpatch.NewArray(calls))
	}
	if m.role == "tool" {
		add("toolCallId", m.toolCallID)
		if m.errText != nil {
			add("error", m.errText)
		}
	}
	m.encrypted.put(add)
	if m.metadata != nil {
		add("metadata", m.metadata)
	}
	if m.owner != "" {
		add("subagentRunId", m.owner)
	}
	return jsonpatch.NewObject(names, values)
}

func (tc *call) value() *jsonpatch.Object {
	fn := jsonpatch.NewObject([]string{"name", "arguments"}, []jsonpatch.Value{tc.name, string(tc.args)})
	names, values := []string{"id", "type", "function"}, []jsonpatch.Value{tc.id, "function", fn}
	tc.encrypted.put(func(name string, v jsonpatch.Value) { names, values = append(names, name), append(values, v) })
	if tc.metadata != nil {
		names, values = append(names, "metadata"), append(values, tc.metadata)
	}
	return jsonpatch.NewObject(names, values)
}

// merge folds an event's metadata into what it builds: key by key, the
// last write winning, never recursing (basic/metadata).
func merge(into *jsonpatch.Object, raw []byte) *jsonpatch.Object {
	if raw == nil {
		return into
	}
	v, _ := jsonpatch.Decode(raw)
	add := v.(*jsonpatch.Object)
	if into == nil {
		return add
	}
	for _, name := range add.Names() {
		w, _ := add.Get(name)
		into = set(into, name, w)
	}
	return into
}

// Messages is the conversation now, each message as the protocol writes
// it: what the next run's input carries.
func (c *Consumer) Messages() []jsonpatch.Value {
	out := make([]jsonpatch.Value, len(c.conv.messages))
	for i, m := range c.conv.messages {
		out[i] = m.value()
	}
	return out
}
