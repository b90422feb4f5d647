package agui

import "fmt"

// Rule is one rule of AG-UI 1.x that the engine enforces or acts on,
// named by its id. A Violation names the rule the stream broke; a Warning
// names the rule that asked for it. Rules are constants, compared with ==;
// the zero Rule, "", is no rule.
type Rule string

// The rules a stream can break. Each is fatal: the consumer rejects the
// stream from that event on.
const (
	NotAnEvent        Rule = "not-an-event"
	Malformed         Rule = "malformed-value"
	FirstEvent        Rule = "first-event"
	NestedRun         Rule = "nested-run"
	AfterFinish       Rule = "after-finish"
	AfterError        Rule = "after-error"
	OpenAtFinish      Rule = "open-at-finish"
	ThreadOfRun       Rule = "thread-of-run"
	RunIDsAgree       Rule = "run-ids-agree"
	RunIDReused       Rule = "run-id-reused"
	RequestedLast     Rule = "requested-run-last"
	Streaming         Rule = "streaming-discipline"
	FirstChunk        Rule = "first-chunk"
	ChunkConflict     Rule = "chunk-conflict"
	ChunkAmbiguous    Rule = "chunk-ambiguous"
	Attribution       Rule = "attribution"
	SubagentLifecycle Rule = "subagent-lifecycle"
	Steps             Rule = "step-discipline"
	InterruptIDs      Rule = "interrupt-ids"
	Reasoning         Rule = "reasoning-discipline"
	// Limit is the engine's own bound on what one stream may make it hold:
	// past it the stream is rejected, whatever the protocol allows.
	Limit Rule = "limit"
	// StateRefused is a consumer's choice, where 1.x lets it fail the run
	// over a state update it cannot apply (Options.Refusals).
	StateRefused Rule = "state-refused"
)

// The rules that ask for a warning and let the run go on.
const (
	UnknownEvent           Rule = "unknown-event"
	UnknownMember          Rule = "unknown-member"
	UnknownOp              Rule = "unknown-op"
	PatchFailed            Rule = "patch-not-applied"
	NewerVersion           Rule = "newer-version"
	UninterpretableVersion Rule = "uninterpretable-version"
	RetiredShape           Rule = "retired-shape"
	LossyDowngrade         Rule = "lossy-downgrade"
	ActivityTarget         Rule = "activity-target"
	CallParent             Rule = "call-parent"
	ResumeUnanswered       Rule = "resume-unanswered-call"
	UnknownEntity          Rule = "unknown-entity"
)

// ruleInfo is what the engine knows of a rule: its page under
// docs.ag-ui.com/spec/1.0/, a few of the spec's words, and its meaning in
// plain words.
type ruleInfo struct {
	rule        Rule
	fatal       bool
	page, quote string
	summary     string
}

// table is every rule, the fatal ones first.
var table = [...]ruleInfo{
	{NotAnEvent, true, "basic/transports/http-sse",
		"Each SSE event's data payload is exactly one protocol event as a JSON object",
		"the data of each SSE message is one event, a JSON object"},
	{Malformed, true, "basic/processing",
		"A field the protocol DOES describe, carrying a value the schema rejects, MUST be fatal",
		"a member the protocol describes holds a value its schema allows"},
	{FirstEvent, true, "events/lifecycle",
		"A stream MUST begin with RUN_STARTED or RUN_ERROR",
		"a stream begins with RUN_STARTED or RUN_ERROR"},
	{NestedRun, true, "events/lifecycle",
		"a RUN_STARTED while a run is still active is a violation",
		"a run starts only once the one before it has ended"},
	{AfterFinish, true, "events/lifecycle",
		"A consumer MUST reject any other event that arrives after a run has closed",
		"after RUN_FINISHED only a new run may follow"},
	{AfterError, true, "events/lifecycle",
		"A producer MUST NOT emit anything after RUN_ERROR except RUN_STARTED",
		"after RUN_ERROR only a new RUN_STARTED may follow"},
	{OpenAtFinish, true, "events/lifecycle",
		"RUN_FINISHED requires everything the run opened to be closed already",
		"a run finishes only once everything it opened (messages, calls, steps, spans, subagents) is closed"},
	{ThreadOfRun, true, "basic/run-input",
		"Every run on the stream carries the input's threadId",
		"every run on the stream is on the input's thread"},
	{RunIDsAgree, true, "basic/run-input",
		"each run's two boundary events MUST agree on their runId",
		"RUN_FINISHED names the run that RUN_STARTED started"},
	{RunIDReused, true, "basic",
		"runId identifies one run. It MUST NOT be reused for another run on the same thread",
		"no two runs on a thread share a run id"},
	{RequestedLast, true, "basic/run-input",
		"The run it requests is the exchange's last",
		"the run the input requested is the stream's last"},
	{Streaming, true, "basic/patterns/streaming",
		"A producer MUST NOT send a content or end event for an identifier that is not open",
		"a message or tool call is started once, and continued or ended only while open"},
	{FirstChunk, true, "basic/patterns/streaming",
		"A consumer MUST treat a first chunk missing a required field as a protocol violation",
		"the chunk that opens a message or call carries its id, and a call its name"},
	{ChunkConflict, true, "basic/patterns/streaming",
		"A consumer MUST treat a conflicting repeat as a protocol violation",
		"a later chunk repeats what the opening chunk said, or says nothing of it"},
	{ChunkAmbiguous, true, "basic/patterns/streaming",
		"the continuation has no unique referent and MUST be rejected as ambiguous",
		"a chunk without an id continues exactly one open chunk stream"},
	{Attribution, true, "events/subagents",
		"A consumer MUST reject a continuation whose tag disagrees with its opener",
		"an event continues only what the same agent or subagent opened"},
	{SubagentLifecycle, true, "events/subagents",
		"Every invocation a producer announces MUST be closed ... before the run finishes",
		"a subagent invocation is announced before use and closed once, before the run finishes"},
	{Steps, true, "events/lifecycle",
		"A producer MUST NOT open a step whose name is already open, and MUST NOT finish a step that was never opened",
		"a step is started before it finishes, and not started again while open"},
	{InterruptIDs, true, "basic/patterns/interrupt-resume",
		"Each interrupt's id MUST be unique within the run; a resume entry answers it by this id",
		"the interrupts a run raises have distinct ids"},
	{Reasoning, true, "events/reasoning",
		"A consumer MUST detect a violation of that discipline and fail the run",
		"reasoning spans and messages are started, continued and ended in order"},
	{Limit, true, "basic/processing",
		"this consumer's bounds on one stream (see agui/limits.go)",
		"one stream stays within the engine's bounds (the Max constants)"},
	{StateRefused, true, "basic/patterns/snapshots",
		"MAY continue with its prior value rather than failing the run",
		"a state update that cannot apply fails the run, when Options.Refusals is Fail"},

	{UnknownEvent, false, "basic/processing",
		"Drop it, if the whole event is of an unrecognised type. The consumer SHOULD emit a warning naming the type",
		"an event of a type the protocol does not describe is dropped"},
	{UnknownMember, false, "basic/processing",
		"Strip it, if it is an unknown property or an unrecognised union member ... SHOULD emit a warning naming the path",
		"a member or value the protocol does not describe is removed"},
	{UnknownOp, false, "basic/patterns/snapshots",
		"the element is dropped from the patch with a warning and the run survives",
		"a patch operation the protocol does not describe is removed from its patch"},
	{PatchFailed, false, "basic/patterns/snapshots",
		"The consumer MUST surface the failure — a warning that identifies what failed and why",
		"a state or activity update that cannot apply is skipped, and the value kept"},
	{NewerVersion, false, "basic/versioning",
		"A consumer meeting a newer producer declaration proceeds under the processing model and SHOULD warn",
		"a producer declaring a newer version is read by the rules of the version spoken"},
	{UninterpretableVersion, false, "basic/versioning",
		"A declaration a party cannot interpret is handled like a newer one: proceed, and SHOULD warn",
		"a protocolVersion that is not a version is read like a newer one"},
	{RetiredShape, false, "basic/versioning",
		"A consumer SHOULD translate a retired shape into its replacement rather than drop it",
		"a retired event (THINKING_*) is translated into the event that replaced it"},
	{LossyDowngrade, false, "basic/versioning",
		"A lossy downgrade MUST emit a warning that names what was lost and why",
		"what a downgrade for an older peer loses is named"},
	{ActivityTarget, false, "events/activity",
		"A delta naming a message that does not exist, or one that is not an activity message, is skipped; the consumer SHOULD surface a warning",
		"an activity event naming a message that is not an activity message is skipped"},
	{CallParent, false, "events/tool-calls",
		"parentMessageId is OPTIONAL and attaches the call to the assistant message that carries it",
		"a tool call whose parentMessageId names a message of another role is held in an assistant message of its own"},
	{ResumeUnanswered, false, "events/tool-calls",
		"An unanswered call leaves the agent mid-thought, and a history with a dangling call is one many models reject outright",
		"a resumed run finishes with a result for the tool call its interrupt concerned"},
	{UnknownEntity, false, "events/reasoning",
		"A REASONING_ENCRYPTED_VALUE whose entityId names nothing the consumer knows ... a consumer SHOULD warn and MAY drop it",
		"an encrypted reasoning value for a message or call the consumer does not hold is dropped"},
}

func (r Rule) info() ruleInfo {
	for _, i := range table {
		if i.rule == r {
			return i
		}
	}
	return ruleInfo{}
}

// ID is the rule's short, stable name: what tests and reports name.
func (r Rule) ID() string { return string(r) }

// String is the rule's id.
func (r Rule) String() string { return string(r) }

// Fatal reports whether breaking the rule rejects the stream; the other
// rules ask for a warning and let the run go on.
func (r Rule) Fatal() bool { return r.info().fatal }

// Page is the spec page the rule is on, under docs.ag-ui.com/spec/1.0/
// ("events/lifecycle"); "" for no rule.
func (r Rule) Page() string { return r.info().page }

// URL is the spec page the rule is on; "" for no rule.
func (r Rule) URL() string {
	if p := r.Page(); p != "" {
		return "https://docs.ag-ui.com/spec/1.0/" + p
	}
	return ""
}

// Quote is a few of the spec's own words for the rule, cut short.
func (r Rule) Quote() string { return r.info().quote }

// Summary is the rule's meaning in a line of plain words.
func (r Rule) Summary() string { return r.info().summary }

// Rules lists every rule this engine names, the fatal ones first.
func Rules() []Rule {
	out := make([]Rule, len(table))
	for i, r := range table {
		out[i] = r.rule
	}
	return out
}

// RuleByID is the rule of an id ("after-finish"), for a report that kept
// only the id; ok is false for an id the engine does not name.
func RuleByID(id string) (r Rule, ok bool) {
	r = Rule(id)
	return r, r.info().rule != ""
}

// Violation is why a stream was rejected: the rule it broke, at which
// event, and what exactly was wrong.
type Violation struct {
	Index  int // the event, from 0
	Rule   Rule
	Reason string
}

// Error is the event and the reason.
func (v *Violation) Error() string { return fmt.Sprintf("event %d: %s", v.Index, v.Reason) }

// Warning is something a consumer should tell a developer about: material
// it dropped or stripped, a patch it could not apply, a version it did not
// expect. The run goes on.
type Warning struct {
	Index int // the event, from 0; -1 for the run input
	Rule  Rule
	Text  string
}

// String is the warning's text.
func (w Warning) String() string { return w.Text }
