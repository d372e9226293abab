package site

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
)

// A file is a non-HTML resource. The About page links them, so a crawler fetches them;
// each holds something that looks like a link, to a trap URL, so that a crawler which
// parses by file name or by sniffing rather than by Content-Type is caught.
type file struct {
	contentType []string
	body        []byte
}

func staticFiles() map[string]file {
	return map[string]file{
		"/static/style.css": {[]string{"text/css; charset=utf-8"}, []byte(
			"/* A style sheet is not HTML: <a href=\"/trap/css.html\">this</a> is not a link. */\n" +
				"body { font-family: serif; background: url(\"/trap/css.png\"); }\n")},
		"/static/notes.txt": {ctText, []byte(
			"Opening notes. Plain text is not HTML, so <a href=\"/trap/txt.html\">this</a> is not a link.\n")},
		"/static/catalogue.json": {ctJSON, []byte(
			"{\"note\": \"JSON is not HTML\", \"href\": \"/trap/json.html\", " +
				"\"html\": \"<a href=\\\"/trap/json.html\\\">not a link</a>\"}\n")},
		"/static/plain.html": {ctText, []byte(
			"<!DOCTYPE html>\n<html><body><p>Served as text/plain, so <a href=\"/trap/plain.html\">this</a> " +
				"is not a link, whatever the file name says.</p></body></html>\n")},
		"/static/cover.png": {[]string{"image/png"}, coverPNG()},
	}
}

// coverPNG is a real (tiny) PNG with a text chunk that holds a would-be link.
func coverPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 3))
	for y := range 3 {
		for x := range 2 {
			img.Set(x, y, color.RGBA{R: 0x8b, G: 0x1a, B: 0x1a, A: 0xff})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic("site: encoding the cover: " + err.Error()) // cannot happen with a bytes.Buffer
	}
	encoded := b.Bytes()
	iend := encoded[len(encoded)-12:] // the last chunk, IEND, is always 12 bytes

	// A tEXt chunk: length, type, keyword NUL text, CRC of type and data.
	data := []byte("Comment\x00<a href=\"/trap/png.html\">not a link</a>")
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	chunk = append(chunk, "tEXt"...)
	chunk = append(chunk, data...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))

	out := append([]byte(nil), encoded[:len(encoded)-12]...)
	out = append(out, chunk...)
	return append(out, iend...)
}
