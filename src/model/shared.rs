//! A value many models hold, compared by identity.

use std::ops::Deref;
use std::rc::Rc;

/// A value shared by the models (and props) copied from one another, equal only to itself: the traces, the
/// history, the library, the lessons' state. Each is made anew as a whole when it changes, so identity says
/// whether it changed, where comparing 1,000 steps under four variants would cost more than drawing again
/// (and compile a deep comparison into the page). A model or a prop holding one derives `PartialEq`.
#[derive(Debug, Default)]
pub struct Shared<T>(Rc<T>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared(Rc::new(value))
    }
}

impl<T: Clone> Shared<T> {
    /// The value to change: copied first if another model shares it (then it is a new value).
    pub fn make_mut(this: &mut Shared<T>) -> &mut T {
        Rc::make_mut(&mut this.0)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(self.0.clone())
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Identity is an equivalence.
impl<T> Eq for Shared<T> {}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Shared<T> {
        Shared::new(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_value_equals_its_copies_only_not_an_equal_value() {
        let a = Shared::new(vec![1u8, 2]);
        let b = Shared::new(vec![1u8, 2]);
        let mut c = a.clone();
        assert!(a == c && a != b);
        Shared::make_mut(&mut c).push(3);
        assert!(a != c, "a change copies the shared value");
        assert_eq!(*a, [1, 2]);
    }
}
