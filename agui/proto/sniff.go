package proto

// IsBinary reports whether head, the first bytes of a capture or a
// response body, is a binary AG-UI stream rather than text: SSE, a JSON
// script or JSON Lines. It judges by content, never by a file's name.
//
// A binary stream starts with its first frame's 4-byte big-endian length.
// A frame any reader takes is under 16 MiB, so that length's first byte is
// 0x00, which UTF-8 text does not begin with. Text in UTF-16 or UTF-32
// can: its fifth byte is 0x00 too, where a message's first byte is a
// field's tag, never 0x00 and never of wire type 6 or 7.
func IsBinary(head []byte) bool {
	if len(head) == 0 || head[0] != 0 {
		return false
	}
	if len(head) < 5 || head[1]|head[2]|head[3] == 0 {
		return true // too short to say more, or an empty frame: no text either way
	}
	tag := head[4]
	return tag != 0 && tag&7 <= 5
}
