package proto

import "google.golang.org/protobuf/encoding/protowire"

// The messages whose JSON is not one member per field, decoded as
// @ag-ui/proto 1.0.0 rebuilds them.

// runOutcome: outcome, interrupts (6) and pending_tool_call_ids (8) become
// the outcome object. With no outcome, what the bytes carry beside it is
// kept at the top, for the engine to strip as it would over SSE.
func (d *decoder) runOutcome(s *scanned) error {
	interrupt := string(s.last[5].b) == "interrupt"
	return d.outcome(s, 5, func() error {
		if s.last[6].n > 0 || interrupt { // an interrupt outcome lists them, if none
			d.name("interrupts")
			if err := d.list(s, s.m.byNum[6]); err != nil {
				return within(err, "interrupts")
			}
		}
		if s.last[8].n > 0 {
			d.name("pendingToolCallIds")
			return within(d.strs(s, 8), "pending_tool_call_ids")
		}
		return nil
	})
}

// subagentOutcome: outcome and interrupt_ids (5) become the outcome object.
func (d *decoder) subagentOutcome(s *scanned) error {
	return d.outcome(s, 4, func() error {
		if s.last[5].n == 0 {
			return nil
		}
		d.name("interruptIds")
		return within(d.strs(s, 5), "interrupt_ids")
	})
}

// outcome writes {"type": outcome, ...what rides with it}, or, with no
// outcome ("" on the wire), what rides with it at the top.
func (d *decoder) outcome(s *scanned, num protowire.Number, rides func() error) error {
	o := &s.last[num]
	if len(o.b) == 0 {
		return rides()
	}
	d.name("outcome")
	if err := d.open('{'); err != nil {
		return err
	}
	d.name("type")
	if err := d.str(o.b, o.at); err != nil {
		return within(err, "outcome")
	}
	if err := rides(); err != nil {
		return err
	}
	d.close('}')
	return nil
}

// toolResultContent: a string in content (5), or the parts (7), never both.
func (d *decoder) toolResultContent(s *scanned) error {
	str, parts := &s.last[5], s.last[7].n
	if str.n > 0 && parts > 0 {
		return bad(str.at, "content", "a string beside content_parts: one of them would be lost")
	}
	d.name("content")
	if str.n > 0 {
		return within(d.str(str.b, str.at), "content")
	}
	return within(d.parts(s, 7), "content_parts")
}

// The roles a Message describes, and which field holds their content.
var (
	knownRoles = map[string]bool{"developer": true, "system": true, "assistant": true, "user": true, "tool": true, "activity": true, "reasoning": true}
	partsRoles = map[string]bool{"user": true, "tool": true}
)

// messageContent: which field is the JSON content depends on the role:
// content_parts (8) for user and tool, activity_content (13) for
// activity, the string (3) for the others. For a role it does not know,
// the one field given decides; a message giving two is malformed, as is
// one giving a field its role has no use for.
func (d *decoder) messageContent(s *scanned) error {
	role := string(s.last[2].b)
	str, parts, object := s.last[3].n > 0, s.last[8].n > 0, s.last[13].n > 0
	known := knownRoles[role]
	usesParts := partsRoles[role] || !known && parts
	usesObject := role == "activity" || !known && !parts && object
	reason := ""
	switch {
	case !known && count(str, parts, object) > 1:
		reason = "more than one of content, content_parts and activity_content"
	case !usesParts && parts:
		reason = "content_parts, for a role that has none"
	case !usesObject && object:
		reason = "activity_content, for a role that is not activity"
	case usesObject && str:
		reason = "content beside activity_content"
	case usesParts && str && parts:
		reason = "content beside content_parts"
	}
	if reason != "" {
		return bad(s.at, "", "a "+role+" message carries "+reason)
	}
	switch {
	case usesParts && !str:
		d.name("content")
		return within(d.parts(s, 8), "content_parts")
	case usesObject && object:
		d.name("content")
		b, at := d.merged(s, 13)
		return within(d.structValue(b, at), "activity_content")
	case str:
		d.name("content")
		return within(d.str(s.last[3].b, s.last[3].at), "content")
	}
	return nil
}

func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// parts writes a list of content parts. A part naming no arm this schema
// knows, or a source with none, is dropped: the same part over SSE is an
// unrecognised union member the engine strips. (@ag-ui/proto warns on the
// console; here it goes silently.)
func (d *decoder) parts(s *scanned, num protowire.Number) error {
	if err := d.open('['); err != nil {
		return err
	}
	i := 0
	err := s.each(num, func(v []byte, at int) error {
		mark := len(d.out)
		d.item()
		kept, err := d.part(v, at)
		if err != nil {
			return withinItem(err, i)
		}
		if !kept {
			d.out = d.out[:mark]
		}
		i++
		return nil
	})
	d.close(']')
	return err
}

// part writes one InputContent as {"type": its arm, ...the arm's fields}.
func (d *decoder) part(b []byte, at int) (kept bool, err error) {
	var s scanned
	if err := s.scan(contentPart, b, at); err != nil {
		return false, err
	}
	f, err := oneArm(&s)
	if f == nil || err != nil {
		return false, err
	}
	v, vat := d.merged(&s, f.num)
	var p scanned
	if err := p.scan(f.msg, v, vat); err != nil {
		return false, within(err, f.proto)
	}
	if src := p.m.member("source"); src != nil && p.last[src.num].n > 0 {
		var ss scanned
		sb, sat := d.merged(&p, src.num)
		if err := ss.scan(source, sb, sat); err != nil {
			return false, within(err, f.proto+".source")
		}
		if a, err := oneArm(&ss); a == nil || err != nil {
			return false, within(err, f.proto+".source")
		}
	}
	if err := d.open('{'); err != nil {
		return false, err
	}
	d.name("type")
	d.out = append(append(append(d.out, '"'), f.json...), '"')
	if err := d.members(&p); err != nil {
		return false, within(err, f.proto)
	}
	d.close('}')
	return true, nil
}

// source writes an InputContentSource as {"type": its arm, ...}.
func (d *decoder) source(s *scanned) error {
	f, err := oneArm(s)
	if err != nil || f == nil {
		return err // part checked it has an arm before writing anything
	}
	v, at := d.merged(s, f.num)
	var a scanned
	if err := a.scan(f.msg, v, at); err != nil {
		return within(err, f.proto)
	}
	if err := d.open('{'); err != nil {
		return err
	}
	d.name("type")
	d.out = append(append(append(d.out, '"'), f.json...), '"')
	if err := d.members(&a); err != nil {
		return within(err, f.proto)
	}
	d.close('}')
	return nil
}

// oneArm is the arm a oneof message gives, nil for none; two different
// arms are malformed, as @ag-ui/proto has it.
func oneArm(s *scanned) (*field, error) {
	var arm *field
	for i := range s.m.fields {
		f := &s.m.fields[i]
		if s.last[f.num].n == 0 {
			continue
		}
		if arm != nil {
			return nil, bad(s.last[f.num].at, "", "two arms of a oneof: "+arm.proto+" and "+f.proto)
		}
		arm = f
	}
	return arm, nil
}
