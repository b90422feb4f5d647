package agui

// The engine's bounds on one stream. The protocol sets none; without them
// an agent could make a consumer hold or do unbounded work. Past any of
// them the stream is rejected with the Limit rule, naming the bound.
const (
	MaxEventBytes = 1 << 20   // one event's JSON
	MaxOpen       = 1000      // messages, calls, spans, steps and subagents open at once
	MaxRuns       = 1000      // runs on one stream
	MaxMessages   = 10000     // messages the conversation holds
	MaxTextBytes  = 256 << 10 // one message's text or one call's arguments
	MaxHeldBytes  = 16 << 20  // all the conversation's text and arguments together
	MaxStateBytes = 4 << 20   // the state, as JSON (JSONState's bound)
	MaxWarnings   = 200       // warnings kept; more are counted
)
