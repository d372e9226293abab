package site

// Every "random" choice on the site is a pure function of the seed and of what is being
// chosen (which book, which related slot...), never a draw from a shared stream. So any
// page can be rendered on its own, in any order, from any goroutine, and always comes
// out the same. The generator is written here rather than taken from math/rand so that
// a site is the same site on every Go version.

// mix is the finalizer of SplitMix64: it spreads the bits of x over the whole word.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// What a draw is for; keeps draws for different purposes independent.
const (
	forSlug uint64 = iota + 1
	forShuffle
	forRelated
	forPrice
	forFeatured
	forGenre
)

// draw returns a well-mixed number determined by the seed, the purpose and two indices.
func draw(seed, purpose uint64, i, j int) uint64 {
	return mix(mix(mix(seed^purpose)^uint64(i)) ^ uint64(j))
}
