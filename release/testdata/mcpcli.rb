# Homebrew formula for mcpcli v1.2.3, written by `make release` from
# release/homebrew/mcpcli.rb.tmpl with the release's archives and
# checksums. Put it in a tap (Formula/mcpcli.rb) once the archives are
# published at the URLs below.
class Mcpcli < Formula
  desc "Terminal MCP client that renders elicitations"
  homepage "https://github.com/mcpcli/mcpcli"
  version "1.2.3"

  on_macos do
    on_arm do
      url "https://github.com/mcpcli/mcpcli/releases/download/v1.2.3/mcpcli_1.2.3_darwin_arm64.tar.gz"
      sha256 "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
    end
    on_intel do
      url "https://github.com/mcpcli/mcpcli/releases/download/v1.2.3/mcpcli_1.2.3_darwin_amd64.tar.gz"
      sha256 "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
    end
  end

  on_linux do
    on_arm do
      url "https://github.com/mcpcli/mcpcli/releases/download/v1.2.3/mcpcli_1.2.3_linux_arm64.tar.gz"
      sha256 "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
    end
    on_intel do
      url "https://github.com/mcpcli/mcpcli/releases/download/v1.2.3/mcpcli_1.2.3_linux_amd64.tar.gz"
      sha256 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    end
  end

  def install
    # mcpcli-supervise beside mcpcli: the small supervisor each stdio server
    # runs under, so that nothing a server starts outlives mcpcli.
    bin.install "mcpcli", "mcpcli-supervise"
  end

  test do
    assert_match "mcpcli version v1.2.3", shell_output("#{bin}/mcpcli --version")
  end
end
