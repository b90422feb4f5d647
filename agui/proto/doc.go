// Package proto reads and writes AG-UI's binary transport
// (application/vnd.ag-ui.event+proto): a stream of frames, each a 4-byte
// big-endian length and one protobuf Event message (agui.proto).
//
// It turns bytes into the events' AG-UI JSON and back, nothing more: the
// engine (package agui) judges the JSON whichever transport carried it.
// Decode gives the JSON @ag-ui/proto 1.0.0's decode gives for the same
// bytes; Encode writes an event's JSON, and refuses one the binary schema
// cannot carry faithfully, naming the member; a Reader reads a stream as
// sse.Reader reads SSE, one event's JSON per Next; IsBinary tells a binary
// capture from text by its first bytes.
//
// The guide (docs/agent-analysis.md, "The binary transport") says why the
// schema is data here rather than generated code, and what the binary
// schema cannot carry that JSON can.
package proto
