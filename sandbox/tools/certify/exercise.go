package certify

// exercise makes every trigger event happen once, one at a time, and
// lets the add-on finish each: the calls they make (an asynchronous
// snapshot among them) are judged with the whole run's.
func (s *suite) exercise() {
	for _, t := range s.o.Triggers {
		if err := s.fire(t); err != nil {
			s.progress("emitting %s failed: %v", t.Event, err)
			continue
		}
		s.settle()
	}
}
