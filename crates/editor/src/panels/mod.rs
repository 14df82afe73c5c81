//! The panels around the viewport. Each draws itself from the state it is given and pushes
//! [`crate::command::Command`]s; none changes the document directly. The key-editing
//! panels ([`dope_sheet`], [`curve_editor`]) return [`PanelOutput`]s instead, each edit a
//! whole edited clip for the app's undo record.

pub mod caps;
pub mod channels;
pub mod curve_edit;
pub mod curve_editor;
pub mod dope_sheet;
pub mod footfall;
pub mod help;
pub mod inspector;
pub mod key_edit;
pub mod locomotion;
pub mod menu_bar;
pub mod output;
pub mod roster;
pub mod status_bar;
pub mod timeline;
pub mod validation;

pub use output::PanelOutput;

#[cfg(test)]
mod key_panel_tests;
