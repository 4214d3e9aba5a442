//! Share links: a whole scenario plus the viewer's state in a compact, versioned, URL-safe string.
//! (Being written; see the module's tests.)
