package site

// The vocabulary of the shop. Titles and category names are drawn from these lists
// by the seed; the words are plain ASCII so that slugs need no escaping anywhere.

var genres = []string{
	"travel", "mystery", "historical-fiction", "sequential-art", "classics", "philosophy",
	"romance", "womens-fiction", "fiction", "childrens", "religion", "nonfiction",
	"music", "science-fiction", "sports-and-games", "fantasy", "new-adult", "young-adult",
	"science", "poetry", "paranormal", "art", "psychology", "autobiography",
	"parenting", "adult-fiction", "humor", "horror", "history", "food-and-drink",
	"christian-fiction", "business",
}

var adjectives = []string{
	"silent", "crimson", "hidden", "last", "golden", "broken", "distant", "quiet",
	"wild", "secret", "burning", "frozen", "little", "lost", "midnight", "northern",
	"painted", "restless", "salt", "shadow", "silver", "summer", "velvet", "wandering",
	"winter", "hollow", "bright", "iron", "paper", "glass", "emerald", "long",
}

var nouns = []string{
	"river", "garden", "letter", "harbor", "lantern", "orchard", "kingdom", "mirror",
	"library", "compass", "cathedral", "island", "meadow", "voyage", "feather", "engine",
	"atlas", "tide", "forest", "clockmaker", "lighthouse", "archive", "bridge", "canyon",
	"promise", "season", "station", "theory", "window", "carnival", "observatory", "alphabet",
}

var ratings = []string{"One", "Two", "Three", "Four", "Five"}
