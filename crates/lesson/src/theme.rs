//! The colour theme: follow the system, or force light or dark. Pure.

/// A colour theme, as the page's button and the embedding options name it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    #[default]
    Auto,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// Every theme, in the order the embedding options list them.
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];

    /// The name used in `data-theme` and in the options (`auto`, `light`, `dark`).
    pub fn name(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The theme with this name.
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether the page is dark under this theme when the system prefers dark or not.
    pub fn is_dark(self, system_dark: bool) -> bool {
        match self {
            Theme::Auto => system_dark,
            Theme::Light => false,
            Theme::Dark => true,
        }
    }

    /// The theme the button switches to: always the opposite of what is shown now.
    pub fn next(self, system_dark: bool) -> Theme {
        if self.is_dark(system_dark) {
            Theme::Light
        } else {
            Theme::Dark
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_button_always_flips_what_is_shown() {
        for theme in Theme::ALL {
            assert_eq!(Theme::from_name(theme.name()), Some(theme));
            for system_dark in [false, true] {
                let next = theme.next(system_dark);
                assert_ne!(next.is_dark(system_dark), theme.is_dark(system_dark));
                assert_ne!(next, Theme::Auto);
            }
        }
        assert_eq!(Theme::from_name("pink"), None);
    }
}
