package engine

// TagBits is the width of Position.Tag, and MaxTag its largest value.
const (
	TagBits = 40
	MaxTag  = 1<<TagBits - 1
)

// Tag returns a short fingerprint of the position for data that must name it in a few bytes
// (a button's callback data, a page's request): TagBits bits of Hash, from 1 to MaxTag, never
// 0, so that 0 can stand for "no position named". Equal positions (size, discs and side to
// move) have equal tags; two different positions share one with a chance of about 2^-40.
func (p Position) Tag() uint64 {
	if t := p.Hash() >> (64 - TagBits); t != 0 {
		return t
	}
	return 1
}
