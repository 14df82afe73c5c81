//! The `anymorph` binary: parses arguments and hands over to the library.

/// The editor's and the command line's heap (see `Cargo.toml`, feature `jemalloc`): huge
/// pages for `anymorph bench`'s crowds, the same allocator for everything else.
#[cfg(all(feature = "jemalloc", not(target_env = "msvc")))]
#[global_allocator]
static HEAP: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    let code = anymorph::cli::main_with_args(std::env::args_os());
    std::process::ExitCode::from(u8::try_from(code).unwrap_or(1))
}
