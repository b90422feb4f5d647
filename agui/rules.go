package agui

import "fmt"

// Rule is one rule of AG-UI 1.0 that this engine enforces or acts on: the
// spec page it comes from and a few words of it. A Violation names the
// rule the stream broke; a Warning names the rule that asked for it.
type Rule struct {
	ID    string // short and stable: what tests and reports name
	Page  string // under docs.ag-ui.com/spec/1.0/
	Quote string // the rule's own words, cut short
}

func (r Rule) String() string { return fmt.Sprintf("%s (%s: %q)", r.ID, r.Page, r.Quote) }

// URL is the spec page the rule is on.
func (r Rule) URL() string { return "https://docs.ag-ui.com/spec/1.0/" + r.Page }

// The rules a stream can break. Each is fatal: the consumer rejects the
// stream from that event on.
var (
	NotAnEvent = Rule{"not-an-event", "basic/transports/http-sse",
		"Each SSE event's data payload is exactly one protocol event as a JSON object"}
	Malformed = Rule{"malformed-value", "basic/processing",
		"A field the protocol DOES describe, carrying a value the schema rejects, MUST be fatal"}
	FirstEvent = Rule{"first-event", "events/lifecycle",
		"A stream MUST begin with RUN_STARTED or RUN_ERROR"}
	NestedRun = Rule{"nested-run", "events/lifecycle",
		"a RUN_STARTED while a run is still active is a violation"}
	AfterFinish = Rule{"after-finish", "events/lifecycle",
		"A consumer MUST reject any other event that arrives after a run has closed"}
	AfterError = Rule{"after-error", "events/lifecycle",
		"A producer MUST NOT emit anything after RUN_ERROR except RUN_STARTED"}
	OpenAtFinish = Rule{"open-at-finish", "events/lifecycle",
		"RUN_FINISHED requires everything the run opened to be closed already"}
	ThreadOfRun = Rule{"thread-of-run", "basic/run-input",
		"Every run on the stream carries the input's threadId"}
	RunIDsAgree = Rule{"run-ids-agree", "basic/run-input",
		"each run's two boundary events MUST agree on their runId"}
	RunIDReused = Rule{"run-id-reused", "basic",
		"runId identifies one run. It MUST NOT be reused for another run on the same thread"}
	RequestedLast = Rule{"requested-run-last", "basic/run-input",
		"The run it requests is the exchange's last"}
	Streaming = Rule{"streaming-discipline", "basic/patterns/streaming",
		"A producer MUST NOT send a content or end event for an identifier that is not open"}
	FirstChunk = Rule{"first-chunk", "basic/patterns/streaming",
		"A consumer MUST treat a first chunk missing a required field as a protocol violation"}
	ChunkConflict = Rule{"chunk-conflict", "basic/patterns/streaming",
		"A consumer MUST treat a conflicting repeat as a protocol violation"}
	ChunkAmbiguous = Rule{"chunk-ambiguous", "basic/patterns/streaming",
		"the continuation has no unique referent and MUST be rejected as ambiguous"}
	Attribution = Rule{"attribution", "events/subagents",
		"A consumer MUST reject a continuation whose tag disagrees with its opener"}
	SubagentLifecycle = Rule{"subagent-lifecycle", "events/subagents",
		"Every invocation a producer announces MUST be closed ... before the run finishes"}
	Steps = Rule{"step-discipline", "events/lifecycle",
		"A producer MUST NOT open a step whose name is already open, and MUST NOT finish a step that was never opened"}
	InterruptIDs = Rule{"interrupt-ids", "basic/patterns/interrupt-resume",
		"Each interrupt's id MUST be unique within the run; a resume entry answers it by this id"}
	Reasoning = Rule{"reasoning-discipline", "events/reasoning",
		"A consumer MUST detect a violation of that discipline and fail the run"}
	// Limit is the engine's own bound on what one stream may make it hold:
	// past it the stream is rejected, whatever the protocol allows.
	Limit = Rule{"limit", "basic/processing",
		"this consumer's bounds on one stream (see agui/limits.go)"}
	// StateRefused: a consumer's choice, where 1.0 lets it fail the run
	// over a state update it cannot apply (Options.Refusals).
	StateRefused = Rule{"state-refused", "basic/patterns/snapshots",
		"MAY continue with its prior value rather than failing the run"}
)

// The rules that ask for a warning and let the run go on.
var (
	UnknownEvent = Rule{"unknown-event", "basic/processing",
		"Drop it, if the whole event is of an unrecognised type. The consumer SHOULD emit a warning naming the type"}
	UnknownMember = Rule{"unknown-member", "basic/processing",
		"Strip it, if it is an unknown property or an unrecognised union member ... SHOULD emit a warning naming the path"}
	UnknownOp = Rule{"unknown-op", "basic/patterns/snapshots",
		"the element is dropped from the patch with a warning and the run survives"}
	PatchFailed = Rule{"patch-not-applied", "basic/patterns/snapshots",
		"The consumer MUST surface the failure — a warning that identifies what failed and why"}
	NewerVersion = Rule{"newer-version", "basic/versioning",
		"A consumer meeting a newer producer declaration proceeds under the processing model and SHOULD warn"}
	UninterpretableVersion = Rule{"uninterpretable-version", "basic/versioning",
		"A declaration a party cannot interpret is handled like a newer one: proceed, and SHOULD warn"}
	RetiredShape = Rule{"retired-shape", "basic/versioning",
		"A consumer SHOULD translate a retired shape into its replacement rather than drop it"}
	LossyDowngrade = Rule{"lossy-downgrade", "basic/versioning",
		"A lossy downgrade MUST emit a warning that names what was lost and why"}
	ActivityTarget = Rule{"activity-target", "events/activity",
		"A delta naming a message that does not exist, or one that is not an activity message, is skipped; the consumer SHOULD surface a warning"}
	ResumeUnanswered = Rule{"resume-unanswered-call", "events/tool-calls",
		"An unanswered call leaves the agent mid-thought, and a history with a dangling call is one many models reject outright"}
	UnknownEntity = Rule{"unknown-entity", "events/reasoning",
		"A REASONING_ENCRYPTED_VALUE whose entityId names nothing the consumer knows ... a consumer SHOULD warn and MAY drop it"}
)

// Violation is why a stream was rejected: the rule it broke, at which
// event, and what exactly was wrong.
type Violation struct {
	Index  int // the event, from 0
	Rule   Rule
	Reason string
}

func (v *Violation) Error() string { return fmt.Sprintf("event %d: %s", v.Index, v.Reason) }

// Warning is something a consumer should tell a developer about: material
// it dropped or stripped, a patch it could not apply, a version it did not
// expect. The run goes on.
type Warning struct {
	Index int // the event, from 0; -1 for the run input
	Rule  Rule
	Text  string
}

func (w Warning) String() string { return w.Text }

// all is every rule above, the fatal ones first.
var all = []Rule{
	NotAnEvent, Malformed, FirstEvent, NestedRun, AfterFinish, AfterError, OpenAtFinish, ThreadOfRun, RunIDsAgree,
	RunIDReused, RequestedLast, Streaming, FirstChunk, ChunkConflict, ChunkAmbiguous, Attribution, SubagentLifecycle,
	Steps, InterruptIDs, Reasoning, Limit, StateRefused,
	UnknownEvent, UnknownMember, UnknownOp, PatchFailed, NewerVersion, UninterpretableVersion, RetiredShape,
	LossyDowngrade, ActivityTarget, ResumeUnanswered, UnknownEntity,
}

// Rules lists every rule this engine names, the fatal ones first.
func Rules() []Rule { return append([]Rule(nil), all...) }

// RuleByID is the rule of an id ("after-finish"), for a report that kept
// only the id.
func RuleByID(id string) (Rule, bool) {
	for _, r := range all {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
