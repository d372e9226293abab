package links

import (
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// queryEncoding returns the encoding in which the links of a page sent in
// charset label send their queries, nil for UTF-8. It is the URL
// Standard's "get an output encoding": UTF-16 pages and the "replacement"
// encoding (labels such as "iso-2022-kr", which are refused as unsafe) send
// UTF-8, as does a page whose label is unknown or missing.
//
// The encoding comes from golang.org/x/text/encoding/htmlindex, which
// knows the same labels as golang.org/x/net/html/charset.Lookup: Lookup's
// encoders write an unencodable character as "&#233;" themselves, and
// urlnorm must see it fail, to escape the "&" (see urlnorm.ResolveIn).
func queryEncoding(label string) encoding.Encoding {
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil
	}
	switch name, _ := htmlindex.Name(enc); name {
	case "utf-8", "utf-16be", "utf-16le", "replacement":
		return nil
	}
	return enc
}
