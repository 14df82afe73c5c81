//! The `anymorph` binary: parses arguments and hands over to the library.

fn main() -> std::process::ExitCode {
    let code = anymorph::cli::main_with_args(std::env::args_os());
    std::process::ExitCode::from(u8::try_from(code).unwrap_or(1))
}
