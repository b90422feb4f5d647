package agui

// The AG-UI schema (docs.ag-ui.com/spec/1.0/schema, with what 1.1 adds),
// as data: every definition an event, a message or a run input is built
// from. The checker (check.go) reads values against it; nothing else
// interprets it.

// kind is the shape of a value.
type kind uint8

const (
	kString  kind = iota
	kBool         // true or false
	kInteger      // an integer a JSON number survives a round trip in (timestamp)
	kCount        // the same, not negative (TokenUsage)
	kAny          // any JSON value, null included
	kNotNull      // any JSON value but null
	kObject       // any object, open by key (metadata, content, responseSchema)
	kConst        // one fixed string
	kEnum         // a closed set of strings: another value is unrecognised
	kPointer      // a JSON Pointer (RFC 6901)
	kDef          // an object of a definition
	kUnion        // an object of one definition, chosen by a discriminator
	kArray        // an array of items
	kTextOr       // a string, or an array of items (message content)
)

// spec is the shape of one value.
type spec struct {
	kind   kind
	values []string // kConst, kEnum
	def    *def     // kDef
	union  *union   // kUnion
	item   *spec    // kArray, kTextOr
	min    int      // kArray: fewest items
}

// field is one member a definition describes.
type field struct {
	name     string
	spec     spec
	required bool
}

// def is an object definition. Closed unless open: a member it does not
// describe is unrecognised material, stripped with a warning.
type def struct {
	name   string
	fields []field
	open   bool // members beyond fields are protocol-legal (patch operations)
}

// union is a set of definitions told apart by one string member.
type union struct {
	name    string // what the value is, for people
	tag     string // the discriminator member
	members map[string]*def
}

func (d *def) field(name string) (*field, bool) {
	for i := range d.fields {
		if d.fields[i].name == name {
			return &d.fields[i], true
		}
	}
	return nil, false
}

func req(name string, s spec) field { return field{name: name, spec: s, required: true} }
func opt(name string, s spec) field { return field{name: name, spec: s} }

var (
	str      = spec{kind: kString}
	boolean  = spec{kind: kBool}
	count    = spec{kind: kCount}
	anyValue = spec{kind: kAny}
	notNull  = spec{kind: kNotNull}
	object   = spec{kind: kObject}
	pointer  = spec{kind: kPointer}
)

func constant(v string) spec       { return spec{kind: kConst, values: []string{v}} }
func enum(vs ...string) spec       { return spec{kind: kEnum, values: vs} }
func ref(d *def) spec              { return spec{kind: kDef, def: d} }
func oneOf(u *union) spec          { return spec{kind: kUnion, union: u} }
func arrayOf(s spec) spec          { return spec{kind: kArray, item: &s} }
func textOr(s spec) spec           { return spec{kind: kTextOr, item: &s} }
func fields(fs ...[]field) []field { return concat(fs...) }

func concat[T any](lists ...[]T) []T {
	var out []T
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Mixins.
var (
	baseEvent = []field{
		opt("timestamp", spec{kind: kInteger}),
		opt("rawEvent", notNull),
		opt("metadata", object),
	}
	attributable = []field{opt("subagentRunId", str)}
)

// Content parts and their sources.
var (
	partSource = &union{name: "part source", tag: "type", members: map[string]*def{
		"data": {name: "DataSource", fields: []field{req("type", constant("data")), req("value", str), req("mimeType", str)}},
		"url":  {name: "UrlSource", fields: []field{req("type", constant("url")), req("value", str), opt("mimeType", str)}},
		"file": {name: "FileSource", fields: []field{req("type", constant("file")), req("value", str), opt("provider", str), opt("mimeType", str)}},
	}}
	contentPart = &union{name: "content part", tag: "type", members: map[string]*def{
		"text":     {name: "TextPart", fields: []field{req("type", constant("text")), opt("id", str), req("text", str), opt("metadata", notNull)}},
		"image":    mediaPart("ImagePart", "image"),
		"audio":    mediaPart("AudioPart", "audio"),
		"video":    mediaPart("VideoPart", "video"),
		"document": mediaPart("DocumentPart", "document"),
	}}
)

func mediaPart(name, kind string) *def {
	return &def{name: name, fields: []field{req("type", constant(kind)), opt("id", str), req("source", oneOf(partSource)), opt("metadata", notNull)}}
}

// Messages.
var (
	toolCallDef = &def{name: "ToolCall", fields: []field{
		req("id", str), req("type", constant("function")),
		req("function", ref(&def{name: "FunctionCall", fields: []field{req("name", str), req("arguments", str)}})),
		opt("encryptedValue", str), opt("encryptedValueType", str), opt("metadata", object),
	}}
	baseMessage = []field{
		opt("subagentRunId", str), req("id", str), opt("name", str), opt("encryptedValue", str), opt("encryptedValueType", str), opt("metadata", object),
	}
	messageUnion = &union{name: "message", tag: "role", members: map[string]*def{
		"developer": {name: "DeveloperMessage", fields: fields(baseMessage, []field{req("role", constant("developer")), req("content", str)})},
		"system":    {name: "SystemMessage", fields: fields(baseMessage, []field{req("role", constant("system")), req("content", str)})},
		"assistant": {name: "AssistantMessage", fields: fields(baseMessage, []field{req("role", constant("assistant")), opt("content", str), opt("toolCalls", arrayOf(ref(toolCallDef)))})},
		"user":      {name: "UserMessage", fields: fields(baseMessage, []field{req("role", constant("user")), req("content", textOr(oneOf(contentPart)))})},
		"tool": {name: "ToolMessage", fields: []field{
			opt("subagentRunId", str), req("id", str), req("role", constant("tool")), req("content", textOr(oneOf(contentPart))),
			req("toolCallId", str), opt("error", str), opt("encryptedValue", str), opt("encryptedValueType", str), opt("metadata", object),
		}},
		"activity": {name: "ActivityMessage", fields: []field{
			opt("subagentRunId", str), req("id", str), req("role", constant("activity")), req("activityType", str),
			req("content", object), opt("metadata", object),
		}},
		"reasoning": {name: "ReasoningMessage", fields: []field{
			opt("subagentRunId", str), req("id", str), req("role", constant("reasoning")), req("content", str),
			opt("encryptedValue", str), opt("encryptedValueType", str), opt("metadata", object),
		}},
	}}
)

// The run input.
var runAgentInput = &def{name: "RunAgentInput", fields: []field{
	req("threadId", str), req("runId", str), opt("protocolVersion", str), opt("parentRunId", str),
	opt("state", notNull), req("messages", arrayOf(oneOf(messageUnion))),
	opt("tools", arrayOf(ref(&def{name: "Tool", fields: []field{req("name", str), req("description", str), opt("parameters", notNull), opt("metadata", object)}}))),
	opt("context", arrayOf(ref(&def{name: "Context", fields: []field{req("description", str), req("value", str)}}))),
	opt("forwardedProps", notNull),
	opt("resume", arrayOf(ref(&def{name: "ResumeEntry", fields: []field{
		req("interruptId", str), req("status", enum("resolved", "cancelled")), opt("payload", notNull), opt("metadata", object),
	}}))),
}}

// Outcomes, interrupts and usage.
var (
	interrupt = &def{name: "Interrupt", fields: []field{
		opt("subagentRunId", str), req("id", str), req("reason", str), opt("message", str), opt("toolCallId", str),
		opt("responseSchema", object), opt("expiresAt", str), opt("metadata", object),
	}}
	runOutcome = &union{name: "outcome", tag: "type", members: map[string]*def{
		"success":   {name: "RunFinishedSuccessOutcome", fields: []field{req("type", constant("success")), opt("pendingToolCallIds", arrayOf(str))}},
		"interrupt": {name: "RunFinishedInterruptOutcome", fields: []field{req("type", constant("interrupt")), req("interrupts", spec{kind: kArray, item: &spec{kind: kDef, def: interrupt}, min: 1})}},
		"cancelled": {name: "RunFinishedCancelledOutcome", fields: []field{req("type", constant("cancelled"))}},
	}}
	subagentOutcome = &union{name: "outcome", tag: "type", members: map[string]*def{
		"success":   {name: "SubagentFinishedSuccessOutcome", fields: []field{req("type", constant("success"))}},
		"suspended": {name: "SubagentFinishedSuspendedOutcome", fields: []field{req("type", constant("suspended")), opt("interruptIds", arrayOf(str))}},
	}}
	tokenUsage = &def{name: "TokenUsage", fields: []field{
		opt("provider", str), opt("model", str), opt("inputTokens", count), opt("outputTokens", count), opt("totalTokens", count),
		opt("reasoningTokens", count), opt("cachedInputTokens", count), opt("cacheWriteInputTokens", count),
	}}
)

// JSON Patch: operations are open objects, told apart by op.
var jsonPatch = arrayOf(oneOf(&union{name: "patch operation", tag: "op", members: map[string]*def{
	"add":     {name: "AddOperation", open: true, fields: []field{req("op", constant("add")), req("path", pointer), req("value", anyValue)}},
	"remove":  {name: "RemoveOperation", open: true, fields: []field{req("op", constant("remove")), req("path", pointer)}},
	"replace": {name: "ReplaceOperation", open: true, fields: []field{req("op", constant("replace")), req("path", pointer), req("value", anyValue)}},
	"move":    {name: "MoveOperation", open: true, fields: []field{req("op", constant("move")), req("from", pointer), req("path", pointer)}},
	"copy":    {name: "CopyOperation", open: true, fields: []field{req("op", constant("copy")), req("from", pointer), req("path", pointer)}},
	"test":    {name: "TestOperation", open: true, fields: []field{req("op", constant("test")), req("path", pointer), req("value", anyValue)}},
}}))

var textMessageRole = enum("developer", "system", "assistant", "user")

// eventDefs: every event type of 1.0, by its type.
var eventDefs = map[Type]*def{}

func event(t Type, attributed bool, fs ...field) {
	mixins := baseEvent
	if attributed {
		mixins = concat(baseEvent, attributable)
	}
	eventDefs[t] = &def{name: string(t), fields: concat([]field{req("type", constant(string(t)))}, mixins, fs)}
}

func init() {
	event(TextMessageStart, true, req("messageId", str), opt("role", textMessageRole), opt("name", str))
	event(TextMessageContent, true, req("messageId", str), req("delta", str))
	event(TextMessageEnd, true, req("messageId", str))
	event(TextMessageChunk, true, opt("messageId", str), opt("role", textMessageRole), opt("delta", str), opt("name", str))
	event(ToolCallStart, true, req("toolCallId", str), req("toolCallName", str), opt("parentMessageId", str))
	event(ToolCallArgs, true, req("toolCallId", str), req("delta", str))
	event(ToolCallEnd, true, req("toolCallId", str))
	event(ToolCallChunk, true, opt("toolCallId", str), opt("toolCallName", str), opt("parentMessageId", str), opt("delta", str))
	event(ToolCallResult, true, req("messageId", str), req("toolCallId", str), req("content", textOr(oneOf(contentPart))), opt("role", constant("tool")))
	event(StateSnapshot, true, req("snapshot", anyValue))
	event(StateDelta, true, req("delta", jsonPatch))
	event(MessagesSnapshot, false, req("messages", arrayOf(oneOf(messageUnion))))
	event(ActivitySnapshot, true, req("messageId", str), req("activityType", str), req("content", object), opt("replace", boolean))
	event(ActivityDelta, true, req("messageId", str), req("activityType", str), req("patch", jsonPatch))
	event(Raw, true, req("event", anyValue), opt("source", str))
	event(Custom, true, req("name", str), req("value", anyValue))
	event(RunStarted, false, req("threadId", str), req("runId", str), opt("protocolVersion", str), opt("parentRunId", str), opt("input", ref(runAgentInput)))
	event(RunFinished, false, req("threadId", str), req("runId", str), opt("result", notNull), opt("outcome", oneOf(runOutcome)), opt("usage", arrayOf(ref(tokenUsage))))
	event(RunError, false, req("message", str), opt("code", str), opt("usage", arrayOf(ref(tokenUsage))))
	event(StepStarted, true, req("stepName", str))
	event(StepFinished, true, req("stepName", str))
	event(ReasoningStart, true, req("messageId", str))
	event(ReasoningMessageStart, true, req("messageId", str), req("role", constant("reasoning")))
	event(ReasoningMessageContent, true, req("messageId", str), req("delta", str))
	event(ReasoningMessageEnd, true, req("messageId", str))
	event(ReasoningMessageChunk, true, opt("messageId", str), opt("delta", str))
	event(ReasoningEnd, true, req("messageId", str))
	event(ReasoningEncryptedValue, true, req("subtype", enum("tool-call", "message")), req("entityId", str), req("encryptedValue", str), opt("encryptedValueType", str))
	// The subagent lifecycle carries subagentRunId as the invocation's own
	// id, required, not as attribution.
	event(SubagentStarted, false, req("subagentRunId", str), req("name", str), opt("description", str),
		opt("parentSubagentRunId", str), opt("parentToolCallId", str), opt("parentMessageId", str))
	event(SubagentFinished, false, req("subagentRunId", str), opt("result", notNull), opt("outcome", oneOf(subagentOutcome)))
	event(SubagentError, false, req("subagentRunId", str), req("message", str), opt("code", str))
	schemaStrings = stringsOf(runAgentInput, eventDefs)
}

// schemaStrings are the strings the schema names (members, event types,
// constants, enum values): reading one of them shares the schema's
// string (stringOf).
var schemaStrings interned

func stringsOf(input *def, events map[Type]*def) interned {
	out := make(interned, 512)
	out.holdDef(input)
	for _, d := range events {
		out.holdDef(d)
	}
	return out
}

// holdDef holds the strings d names, and those of the definitions its
// members hold (none holds itself, at any depth).
func (t interned) holdDef(d *def) {
	for _, f := range d.fields {
		t.hold(f.name)
		t.holdSpec(&f.spec)
	}
}

func (t interned) holdSpec(s *spec) {
	for _, v := range s.values {
		t.hold(v)
	}
	if s.def != nil {
		t.holdDef(s.def)
	}
	if s.union != nil {
		for _, d := range s.union.members {
			t.holdDef(d)
		}
	}
	if s.item != nil {
		t.holdSpec(s.item)
	}
}
