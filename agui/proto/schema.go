package proto

import "google.golang.org/protobuf/encoding/protowire"

// The binary schema (agui.proto) as data: every message, its fields by
// number, and the JSON member each becomes. The decoder and the encoder
// read it; schema_test.go holds it to agui.proto.

// kind is what a field holds on the wire and how its JSON member reads.
type kind uint8

const (
	text      kind = iota // string: always a member, "" when the bytes leave it out
	optText               // optional string: a member only when carried
	optBool               // optional bool
	optInt64              // optional int64, within ±(2^53−1)
	value                 // google.protobuf.Value: any JSON value, left out when it holds none
	object                // google.protobuf.Struct: a JSON object
	nested                // one message: a JSON object, left out when absent
	list                  // repeated message: always an array, unless omitEmpty
	texts                 // repeated string: the same
	patchOp               // JsonPatchOperationType: the op's name
	eventType             // BaseEvent.type
)

// wire is the wire type a field of this kind must arrive in.
func (k kind) wire() protowire.Type {
	switch k {
	case optBool, optInt64, patchOp, eventType:
		return protowire.VarintType
	}
	return protowire.BytesType
}

// field is one field of a message.
type field struct {
	num       protowire.Number
	proto     string // its name in agui.proto, for errors about bytes
	json      string // its JSON member, for errors about JSON
	kind      kind
	msg       *message // nested, list
	omitEmpty bool     // list, texts: no member when empty, as @ag-ui/proto leaves it out
	byShape   bool     // read and written by its message's shape, not one member per field
}

// shape says how a message's JSON departs from one member per field.
type shape uint8

const (
	plain            shape = iota
	event                  // an event: base_event's members at the top, "type" first
	runFinished            // outcome, interrupts and pending ids make the outcome object
	subagentFinished       // outcome and interrupt ids make the outcome object
	toolResult             // content is a string or a list of parts
	chatMessage            // which field holds content depends on the role
	oneofPart              // a content part: the arm is its "type"
	oneofSource            // a media part's source: the arm is its "type"
)

// message is one message of the schema.
type message struct {
	name   string
	shape  shape
	fields []field
	byNum  []*field // fields by number; nil where the schema has none
	typ    string   // event: its JSON "type"
}

func (m *message) field(num protowire.Number) *field {
	if num < 0 || int(num) >= len(m.byNum) {
		return nil
	}
	return m.byNum[num]
}

func (m *message) member(json string) *field {
	if json == "" {
		return nil // base_event's: a field of no member, whose members the event's own are
	}
	for i := range m.fields {
		if m.fields[i].json == json {
			return &m.fields[i]
		}
	}
	return nil
}

func msg(name string, s shape, fs ...field) *message {
	m := &message{name: name, shape: s, fields: fs}
	top := protowire.Number(0)
	for _, f := range fs {
		top = max(top, f.num)
	}
	m.byNum = make([]*field, top+1)
	for i := range m.fields {
		m.byNum[m.fields[i].num] = &m.fields[i]
	}
	return m
}

// f is a field whose JSON member is its name in camelCase, given here.
func f(num protowire.Number, proto, json string, k kind) field {
	return field{num: num, proto: proto, json: json, kind: k}
}

func of(num protowire.Number, proto, json string, k kind, m *message) field {
	return field{num: num, proto: proto, json: json, kind: k, msg: m}
}

func (f field) omittedWhenEmpty() field { f.omitEmpty = true; return f }
func (f field) shaped() field           { f.byShape = true; return f }

var (
	function = msg("ToolCall.Function", plain,
		f(1, "name", "name", text),
		f(2, "arguments", "arguments", text))
	toolCall = msg("ToolCall", plain,
		f(1, "id", "id", text),
		f(2, "type", "type", text),
		of(3, "function", "function", nested, function),
		f(4, "metadata", "metadata", object),
		f(5, "encrypted_value", "encryptedValue", optText),
		f(6, "encrypted_value_type", "encryptedValueType", optText))

	dataSource = msg("InputContentDataSource", plain,
		f(1, "value", "value", text),
		f(2, "mime_type", "mimeType", text))
	urlSource = msg("InputContentUrlSource", plain,
		f(1, "value", "value", text),
		f(2, "mime_type", "mimeType", optText))
	fileSource = msg("InputContentFileSource", plain,
		f(1, "value", "value", text),
		f(2, "provider", "provider", optText),
		f(3, "mime_type", "mimeType", optText))
	// The arms' JSON names are the source's "type".
	source = msg("InputContentSource", oneofSource,
		of(1, "data", "data", nested, dataSource),
		of(2, "url", "url", nested, urlSource),
		of(3, "file", "file", nested, fileSource))

	textPart = msg("TextInputPart", plain,
		f(1, "text", "text", text),
		f(2, "id", "id", optText),
		f(3, "metadata", "metadata", value))
	// The arms' JSON names are the part's "type".
	contentPart = msg("InputContent", oneofPart,
		of(1, "text", "text", nested, textPart),
		of(2, "image", "image", nested, mediaPart("ImageInputPart")),
		of(3, "audio", "audio", nested, mediaPart("AudioInputPart")),
		of(4, "video", "video", nested, mediaPart("VideoInputPart")),
		of(5, "document", "document", nested, mediaPart("DocumentInputPart")))

	chatMsg = msg("Message", chatMessage,
		f(1, "id", "id", text),
		f(2, "role", "role", text),
		f(3, "content", "content", optText).shaped(),
		f(4, "name", "name", optText),
		of(5, "tool_calls", "toolCalls", list, toolCall).omittedWhenEmpty(),
		f(6, "tool_call_id", "toolCallId", optText),
		f(7, "error", "error", optText),
		of(8, "content_parts", "content", list, contentPart).shaped(),
		f(9, "metadata", "metadata", object),
		f(10, "subagent_run_id", "subagentRunId", optText),
		f(11, "encrypted_value", "encryptedValue", optText),
		f(12, "activity_type", "activityType", optText),
		f(13, "activity_content", "content", object).shaped(),
		f(14, "encrypted_value_type", "encryptedValueType", optText))

	runInput = msg("RunAgentInput", plain,
		f(1, "thread_id", "threadId", text),
		f(2, "run_id", "runId", text),
		f(3, "parent_run_id", "parentRunId", optText),
		f(4, "state", "state", value),
		of(5, "messages", "messages", list, chatMsg),
		of(6, "tools", "tools", list, msg("Tool", plain,
			f(1, "name", "name", text),
			f(2, "description", "description", text),
			f(3, "parameters", "parameters", value),
			f(4, "metadata", "metadata", object))),
		of(7, "context", "context", list, msg("Context", plain,
			f(1, "description", "description", text),
			f(2, "value", "value", text))),
		f(8, "forwarded_props", "forwardedProps", value),
		of(9, "resume", "resume", list, msg("ResumeEntry", plain,
			f(1, "interrupt_id", "interruptId", text),
			f(2, "status", "status", text),
			f(3, "payload", "payload", value),
			f(4, "metadata", "metadata", object))),
		f(10, "protocol_version", "protocolVersion", optText))

	interrupt = msg("Interrupt", plain,
		f(1, "id", "id", text),
		f(2, "reason", "reason", text),
		f(3, "message", "message", optText),
		f(4, "tool_call_id", "toolCallId", optText),
		f(5, "response_schema", "responseSchema", value),
		f(6, "expires_at", "expiresAt", optText),
		f(7, "metadata", "metadata", value),
		f(8, "subagent_run_id", "subagentRunId", optText))

	usage = msg("Usage", plain,
		f(1, "provider", "provider", optText),
		f(2, "model", "model", optText),
		f(3, "input_tokens", "inputTokens", optInt64),
		f(4, "output_tokens", "outputTokens", optInt64),
		f(5, "total_tokens", "totalTokens", optInt64),
		f(6, "reasoning_tokens", "reasoningTokens", optInt64),
		f(7, "cached_input_tokens", "cachedInputTokens", optInt64),
		f(8, "cache_write_input_tokens", "cacheWriteInputTokens", optInt64))

	patchOperation = msg("JsonPatchOperation", plain,
		f(1, "op", "op", patchOp),
		f(2, "path", "path", text),
		f(3, "from", "from", optText),
		f(4, "value", "value", value))

	baseEvent = msg("BaseEvent", plain,
		f(1, "type", "type", eventType),
		f(2, "timestamp", "timestamp", optInt64),
		f(3, "raw_event", "rawEvent", value),
		f(4, "metadata", "metadata", object))
)

func mediaPart(name string) *message {
	return msg(name, plain,
		of(1, "source", "source", nested, source),
		f(2, "metadata", "metadata", value),
		f(3, "id", "id", optText))
}

// opNames are JsonPatchOperationType's values, by number.
var opNames = []string{"add", "remove", "replace", "move", "copy", "test"}

// events are the Event oneof's arms by field number: each an event
// message, its JSON "type" and its number in EventType.
var events = map[protowire.Number]*message{}

// eventNumbers are EventType's values: what base_event.type says.
var eventNumbers = map[string]int32{}

// eventArms are the arms by the JSON "type" they carry.
var eventArms = map[string]protowire.Number{}

func ev(arm protowire.Number, typ string, number int32, name string, s shape, fs ...field) {
	base := of(1, "base_event", "", nested, baseEvent).shaped()
	m := msg(name, s, append([]field{base}, fs...)...)
	m.typ = typ
	events[arm] = m
	eventNumbers[typ] = number
	eventArms[typ] = arm
}

func init() {
	sub := func(num protowire.Number) field { return f(num, "subagent_run_id", "subagentRunId", optText) }

	ev(1, "TEXT_MESSAGE_START", 0, "TextMessageStartEvent", event,
		f(2, "message_id", "messageId", text), f(3, "role", "role", optText), f(4, "name", "name", optText), sub(5))
	ev(2, "TEXT_MESSAGE_CONTENT", 1, "TextMessageContentEvent", event,
		f(2, "message_id", "messageId", text), f(3, "delta", "delta", text), sub(4))
	ev(3, "TEXT_MESSAGE_END", 2, "TextMessageEndEvent", event,
		f(2, "message_id", "messageId", text), sub(3))
	ev(4, "TOOL_CALL_START", 3, "ToolCallStartEvent", event,
		f(2, "tool_call_id", "toolCallId", text), f(3, "tool_call_name", "toolCallName", text),
		f(4, "parent_message_id", "parentMessageId", optText), sub(5))
	ev(5, "TOOL_CALL_ARGS", 4, "ToolCallArgsEvent", event,
		f(2, "tool_call_id", "toolCallId", text), f(3, "delta", "delta", text), sub(4))
	ev(6, "TOOL_CALL_END", 5, "ToolCallEndEvent", event,
		f(2, "tool_call_id", "toolCallId", text), sub(3))
	ev(7, "STATE_SNAPSHOT", 6, "StateSnapshotEvent", event,
		f(2, "snapshot", "snapshot", value), sub(3))
	ev(8, "STATE_DELTA", 7, "StateDeltaEvent", event,
		of(2, "delta", "delta", list, patchOperation), sub(3))
	ev(9, "MESSAGES_SNAPSHOT", 8, "MessagesSnapshotEvent", event,
		of(2, "messages", "messages", list, chatMsg))
	ev(10, "RAW", 9, "RawEvent", event,
		f(2, "event", "event", value), f(3, "source", "source", optText), sub(4))
	ev(11, "CUSTOM", 10, "CustomEvent", event,
		f(2, "name", "name", text), f(3, "value", "value", value), sub(4))
	ev(12, "RUN_STARTED", 11, "RunStartedEvent", event,
		f(2, "thread_id", "threadId", text), f(3, "run_id", "runId", text),
		f(4, "parent_run_id", "parentRunId", optText), of(5, "input", "input", nested, runInput),
		f(6, "protocol_version", "protocolVersion", optText))
	ev(13, "RUN_FINISHED", 12, "RunFinishedEvent", runFinished,
		f(2, "thread_id", "threadId", text), f(3, "run_id", "runId", text), f(4, "result", "result", value),
		f(5, "outcome", "outcome", text).shaped(),
		of(6, "interrupts", "interrupts", list, interrupt).shaped(),
		of(7, "usage", "usage", list, usage).omittedWhenEmpty(),
		f(8, "pending_tool_call_ids", "pendingToolCallIds", texts).shaped())
	ev(14, "RUN_ERROR", 13, "RunErrorEvent", event,
		f(2, "code", "code", optText), f(3, "message", "message", text),
		of(4, "usage", "usage", list, usage).omittedWhenEmpty())
	ev(15, "STEP_STARTED", 14, "StepStartedEvent", event, f(2, "step_name", "stepName", text), sub(3))
	ev(16, "STEP_FINISHED", 15, "StepFinishedEvent", event, f(2, "step_name", "stepName", text), sub(3))
	ev(17, "TEXT_MESSAGE_CHUNK", 19, "TextMessageChunkEvent", event,
		f(2, "message_id", "messageId", optText), f(3, "role", "role", optText), f(4, "delta", "delta", optText),
		f(5, "name", "name", optText), sub(6))
	ev(18, "TOOL_CALL_CHUNK", 20, "ToolCallChunkEvent", event,
		f(2, "tool_call_id", "toolCallId", optText), f(3, "tool_call_name", "toolCallName", optText),
		f(4, "parent_message_id", "parentMessageId", optText), f(5, "delta", "delta", optText), sub(6))
	ev(19, "SUBAGENT_STARTED", 16, "SubagentStartedEvent", event,
		f(2, "subagent_run_id", "subagentRunId", text), f(3, "name", "name", text),
		f(4, "description", "description", optText), f(5, "parent_subagent_run_id", "parentSubagentRunId", optText),
		f(6, "parent_tool_call_id", "parentToolCallId", optText), f(7, "parent_message_id", "parentMessageId", optText))
	ev(20, "SUBAGENT_FINISHED", 17, "SubagentFinishedEvent", subagentFinished,
		f(2, "subagent_run_id", "subagentRunId", text), f(3, "result", "result", value),
		f(4, "outcome", "outcome", text).shaped(),
		f(5, "interrupt_ids", "interruptIds", texts).shaped())
	ev(21, "SUBAGENT_ERROR", 18, "SubagentErrorEvent", event,
		f(2, "subagent_run_id", "subagentRunId", text), f(3, "message", "message", text), f(4, "code", "code", optText))
	ev(22, "TOOL_CALL_RESULT", 21, "ToolCallResultEvent", toolResult,
		sub(2), f(3, "message_id", "messageId", text), f(4, "tool_call_id", "toolCallId", text),
		f(5, "content", "content", optText).shaped(), f(6, "role", "role", optText),
		of(7, "content_parts", "content", list, contentPart).shaped())
	ev(23, "ACTIVITY_SNAPSHOT", 22, "ActivitySnapshotEvent", event,
		sub(2), f(3, "message_id", "messageId", text), f(4, "activity_type", "activityType", text),
		f(5, "content", "content", object), f(6, "replace", "replace", optBool))
	ev(24, "ACTIVITY_DELTA", 23, "ActivityDeltaEvent", event,
		sub(2), f(3, "message_id", "messageId", text), f(4, "activity_type", "activityType", text),
		of(5, "patch", "patch", list, patchOperation))
	ev(25, "REASONING_START", 24, "ReasoningStartEvent", event, sub(2), f(3, "message_id", "messageId", text))
	ev(26, "REASONING_MESSAGE_START", 25, "ReasoningMessageStartEvent", event,
		sub(2), f(3, "message_id", "messageId", text), f(4, "role", "role", text))
	ev(27, "REASONING_MESSAGE_CONTENT", 26, "ReasoningMessageContentEvent", event,
		sub(2), f(3, "message_id", "messageId", text), f(4, "delta", "delta", text))
	ev(28, "REASONING_MESSAGE_END", 27, "ReasoningMessageEndEvent", event, sub(2), f(3, "message_id", "messageId", text))
	ev(29, "REASONING_MESSAGE_CHUNK", 28, "ReasoningMessageChunkEvent", event,
		sub(2), f(3, "message_id", "messageId", optText), f(4, "delta", "delta", optText))
	ev(30, "REASONING_END", 29, "ReasoningEndEvent", event, sub(2), f(3, "message_id", "messageId", text))
	ev(31, "REASONING_ENCRYPTED_VALUE", 30, "ReasoningEncryptedValueEvent", event,
		sub(2), f(3, "subtype", "subtype", text), f(4, "entity_id", "entityId", text),
		f(5, "encrypted_value", "encryptedValue", text), f(6, "encrypted_value_type", "encryptedValueType", optText))
}
