fn main() {
    epochlab::lessons_app::start();
}
