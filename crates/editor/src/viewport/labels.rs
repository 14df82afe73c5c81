//! Where the creatures' name tags go: each above its creature, nudged up past the tags
//! nearer the camera, but never far from what it names. Zoomed out, a row of creatures puts
//! every tag on the same spot, and nudging alone stacked them into a tower far above the
//! creatures, each tag pointing at nothing. So a tag may rise by one tag's height at most:
//! one that would have to rise more drops its second line ("does not bind": its colour
//! still says so), and one that still would is left out. The selected creature's tag is
//! always drawn.

use egui::{Pos2, Rect, Vec2};

/// One tag to place: where its creature's top is on screen, and the size of its full text
/// and of its first line alone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TagRequest {
    pub anchor: Pos2,
    pub full: Vec2,
    pub short: Vec2,
    /// The selected creature's tag: always drawn.
    pub keep: bool,
}

/// Where a tag goes, and whether it shows only its first line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub index: usize,
    pub rect: Rect,
    pub short: bool,
}

/// Places `tags`, nearest the camera (lowest on screen) first: those keep their place. No
/// two placed tags overlap, except a kept one that had nowhere else to go.
pub fn place(tags: &[TagRequest]) -> Vec<Placed> {
    let mut order: Vec<usize> = (0..tags.len()).collect();
    // Kept tags first, so a crowd never pushes the selected creature's name away.
    order.sort_by(|&a, &b| {
        tags[b]
            .keep
            .cmp(&tags[a].keep)
            .then(tags[b].anchor.y.total_cmp(&tags[a].anchor.y))
    });
    let mut placed: Vec<Placed> = Vec::new();
    for i in order {
        let tag = &tags[i];
        let spot = [(tag.full, false), (tag.short, true)]
            .into_iter()
            .find_map(|(size, short)| {
                let rect = nudged(tag.anchor, size, tag.full.y + GAP, &placed)?;
                Some(Placed {
                    index: i,
                    rect,
                    short,
                })
            });
        match spot {
            Some(p) => placed.push(p),
            None if tag.keep => placed.push(Placed {
                index: i,
                rect: Rect::from_min_size(
                    tag.anchor - Vec2::new(tag.full.x * 0.5, tag.full.y),
                    tag.full,
                ),
                short: false,
            }),
            None => {}
        }
    }
    placed
}

/// Pixels between a tag and the one it was nudged above.
const GAP: f32 = 2.0;

/// The tag's rect over `anchor`, moved up past every placed tag it meets, if that lifts it
/// no more than `max_lift`.
fn nudged(anchor: Pos2, size: Vec2, max_lift: f32, placed: &[Placed]) -> Option<Rect> {
    let home = Rect::from_min_size(anchor - Vec2::new(size.x * 0.5, size.y), size);
    let mut rect = home;
    for _ in 0..=placed.len() {
        let Some(blocker) = placed.iter().find(|p| p.rect.intersects(rect)) else {
            return Some(rect);
        };
        rect = rect.translate(Vec2::new(0.0, blocker.rect.top() - rect.bottom() - GAP));
        if home.bottom() - rect.bottom() > max_lift + 1e-3 {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(x: f32, y: f32, keep: bool) -> TagRequest {
        TagRequest {
            anchor: Pos2::new(x, y),
            full: Vec2::new(90.0, 36.0),
            short: Vec2::new(70.0, 20.0),
            keep,
        }
    }

    #[test]
    fn tags_far_apart_keep_their_full_text_where_they_are() {
        let tags = [tag(100.0, 300.0, false), tag(400.0, 300.0, false)];
        let placed = place(&tags);
        assert_eq!(placed.len(), 2);
        for p in &placed {
            assert!(!p.short);
            let t = &tags[p.index];
            assert_eq!(p.rect.center_bottom(), t.anchor);
        }
    }

    #[test]
    fn a_crowd_neither_overlaps_nor_towers_over_the_creatures() {
        // Zoomed out: sixteen creatures within a few pixels of each other.
        let mut tags: Vec<TagRequest> = (0..16)
            .map(|i| {
                tag(
                    300.0 + (i % 4) as f32 * 6.0,
                    300.0 + (i / 4) as f32 * 3.0,
                    false,
                )
            })
            .collect();
        tags[9].keep = true;
        let placed = place(&tags);
        assert!(placed.len() < tags.len(), "every tag drawn in a crowd");
        assert!(
            placed.iter().any(|p| p.index == 9),
            "the selected tag was dropped"
        );
        for (k, a) in placed.iter().enumerate() {
            let t = &tags[a.index];
            let lift = t.anchor.y - a.rect.bottom();
            assert!(
                lift <= t.full.y + GAP + 1e-3,
                "tag {} lifted {lift} px",
                a.index
            );
            for b in &placed[k + 1..] {
                assert!(
                    !a.rect.intersects(b.rect),
                    "tags {} and {} overlap",
                    a.index,
                    b.index
                );
            }
        }
        // Two creatures side by side: both named, one just above the other.
        let pair = place(&tags[..2]);
        assert_eq!(pair.len(), 2);
    }
}
