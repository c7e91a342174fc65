//! STUB (replaced by the render branch).
pub mod grep;
