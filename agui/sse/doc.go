// Package sse reads Server-Sent Events (text/event-stream) as the HTML
// standard parses them: the transport AG-UI streams its events over, one
// event's JSON in each message's data.
//
// A Reader reads from any io.Reader, an HTTP response body say, and Next
// returns the data of one message at a time: lines end in LF, CRLF or CR,
// the "data" lines of a message join with LF, comments and the fields
// AG-UI gives no meaning to (event, id, retry) are skipped, and a blank
// line ends the message. A message or a comment line over the Reader's
// bound stops it with ErrEventTooLarge rather than hold it.
package sse
